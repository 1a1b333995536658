package auditrun_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/bench/genrepo"
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
	whole := filepath.Join(gitDirOf(b, dir), "skillgit", "cache", "audit", "all")
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

// benchRepo returns the repository named by SKILLGIT_BENCH_REPO, or generates one; see
// BenchmarkPublished of lifecycle.
func benchRepo(b *testing.B) string {
	if dir := os.Getenv("SKILLGIT_BENCH_REPO"); dir != "" {
		return dir
	}
	dir := filepath.Join(b.TempDir(), "repo")
	if _, err := lifecycle.Init(lifecycle.InitOptions{Dir: dir}); err != nil {
		b.Fatal(err)
	}
	res, err := genrepo.Generate(dir, genrepo.Options{Skills: benchSkills, Commits: benchCommits, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d skills, %d commits in %s", res.Skills, res.Commits, dir)
	return dir
}
