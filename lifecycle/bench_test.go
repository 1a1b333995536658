package lifecycle_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// benchSkills and benchCommits size the generated repository as the performance goals do.
const (
	benchSkills  = 10_000
	benchCommits = 3_000
)

// BenchmarkAudit audits every skill on the publish branch of the generated repository, as
// `skillgit audit --rev main` does: NoCache with the result cache off (every skill scanned),
// Cached with the whole result served from one cache entry (keyed by the skills folder's
// tree), CachedPerSkill with the whole result removed before every run, so that each skill
// is served from its own entry, as before the whole result was cached (and the whole result
// is stored again). Bytes are those of the skills' files.
func BenchmarkAudit(b *testing.B) {
	dir := benchRepo(b)
	b.Run("NoCache", func(b *testing.B) { benchAudit(b, dir, true, nil) })
	b.Run("Cached", func(b *testing.B) { benchAudit(b, dir, false, nil) })
	whole := filepath.Join(gitDir(b, dir), "skillgit", "cache", "audit", "all")
	b.Run("CachedPerSkill", func(b *testing.B) {
		benchAudit(b, dir, false, func() {
			if err := os.RemoveAll(whole); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// benchAudit times lifecycle.Audit of main; before, when not nil, runs untimed before each run.
func benchAudit(b *testing.B, dir string, noCache bool, before func()) {
	req := auditrun.Request{Dir: dir, Rev: "main", NoCache: noCache}
	run, err := lifecycle.Audit(req)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, r := range run.Reports {
		size += r.Report.Bytes
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if before != nil {
			b.StopTimer()
			before()
			b.StartTimer()
		}
		if _, err := lifecycle.Audit(req); err != nil {
			b.Fatal(err)
		}
	}
}

func gitDir(tb testing.TB, dir string) string {
	r, err := lifecycle.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	return r.Git().CommonDir()
}

// benchRepo returns the repository named by SKILLGIT_BENCH_REPO, or generates one.
func benchRepo(b *testing.B) string {
	return lifecycletest.Generated(b, "SKILLGIT_BENCH_REPO", genrepo.Options{Skills: benchSkills, Commits: benchCommits, Seed: 1})
}
