package lifecycle

import (
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// BenchmarkOverlaps compares a new skill with the 10,000 published skills of a generated
// repository, as propose does, with the matcher's index warm as in a long-running server.
func BenchmarkOverlaps(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir}); err != nil {
		b.Fatal(err)
	}
	if _, err := genrepo.Generate(dir, genrepo.Options{Skills: 10_000, Commits: 100, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	sk := &catalog.Skill{Name: "migration-notes", Description: "Review database migration scripts and write release notes for the deploy.",
		Body: "1. Read each migration script.\n2. Note what it changes.\n3. Write the release notes."}
	d := dupCheck{r: r}
	if _, err := d.overlaps(sk); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := d.overlaps(sk); err != nil {
			b.Fatal(err)
		}
	}
}
