package published_test

import (
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

// benchTask is a task of the kind agents match: a sentence that names a few things.
const benchTask = "review the database migration scripts and write release notes for the deploy"

// BenchmarkMatch ranks the published skills of the generated repository for a task: Open as
// `skillgit match` does (a fresh repository, listing from the catalog cache, a new index each
// time), and Warm as a long-running server does (the index built once).
func BenchmarkMatch(b *testing.B) {
	dir := benchRepo(b)
	listOnce(b, dir)
	b.Run("Open", func(b *testing.B) {
		for b.Loop() {
			r, err := lifecycle.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			matchOnce(b, r)
			r.Close()
		}
	})
	b.Run("Warm", func(b *testing.B) {
		r, err := lifecycle.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		matchOnce(b, r)
		for b.Loop() {
			if err := r.Refresh(); err != nil {
				b.Fatal(err)
			}
			matchOnce(b, r)
		}
	})
}

func matchOnce(b *testing.B, r *lifecycle.Repo) {
	res, err := r.Published().Match(benchTask, catalog.MatchOptions{Limit: 5})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Matches) == 0 {
		b.Fatal("no skill matched the benchmark task")
	}
}
