package lifecycle_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/lifecycle"
)

// The lifecycle benchmarks measure the lifecycle's performance goals on generated
// repositories. None of them changes a repository named by an environment variable: publish
// and storage work on a copy, and the candidates repository is built once from a copy.
//
//	SKILLGIT_BENCH_REPO             the large repository (default: 10,000 skills generated)
//	SKILLGIT_BENCH_SMALL_REPO       the 100-skill repository of BenchmarkPublish (default:
//	                                generated with the large one's number of commits)
//	SKILLGIT_BENCH_CANDIDATES_REPO  a copy of the large repository with 1,000 open
//	                                candidates; built there when missing, reused after
//	SKILLGIT_BENCH_STORAGE_REPO     the repository BenchmarkPublishStorage publishes into
//	                                (default: the large one)
//	SKILLGIT_BENCH_PUBLISHES        publishes of BenchmarkPublishStorage (default 1,000)
//	SKILLGIT_BENCH_COMMITS          commits of a generated repository (default 3,000)

// Authors of the benchmark's lifecycle actions; the approver must differ from the proposer.
const (
	benchProposer = "Bench Proposer <proposer@example.com>"
	benchApprover = "Bench Approver <approver@example.com>"
)

// openCandidates is how many open candidates BenchmarkCandidates lists.
const openCandidates = 1000

// BenchmarkPublish publishes one approved candidate that patches one skill, as
// `skillgit publish ID` does (open the repository, publish, close), at 10,000 skills and at
// 100 skills; the goal is at most 2× between them. Each iteration proposes and approves a
// fresh candidate on the current tip outside the timer, so no candidate is behind the branch.
func BenchmarkPublish(b *testing.B) {
	large := benchRepo(b)
	small := lifecycletest.Generated(b, "SKILLGIT_BENCH_SMALL_REPO", genrepo.Options{Skills: 100, Commits: envInt(b, "SKILLGIT_BENCH_COMMITS", benchCommits), Seed: 1})
	b.Run("Skills10000", func(b *testing.B) { benchPublish(b, large) })
	b.Run("Skills100", func(b *testing.B) { benchPublish(b, small) })
}

func benchPublish(b *testing.B, src string) {
	p := newPublisher(b, lifecycletest.BareCopy(b, src))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		id := p.candidate(b)
		b.StartTimer()
		p.publish(b, id)
	}
}

// BenchmarkLog reads the audit trail of one skill, as `skillgit log NAME` does, in a copy of
// the large repository: Skill with the trail cache (which remembers the folders that plain git
// commits changed) in place, SkillCold with it removed before every run, as after a clone,
// and All for the whole branch. The goal for one skill is under 0.5 s at 20,000 commits.
func BenchmarkLog(b *testing.B) {
	dir := lifecycletest.BareCopy(b, benchRepo(b))
	name := lifecycletest.LatestSkill(b, dir)
	b.Run("Skill", func(b *testing.B) { benchLog(b, dir, name, false) })
	b.Run("SkillCold", func(b *testing.B) { benchLog(b, dir, name, true) })
	b.Run("All", func(b *testing.B) { benchLog(b, dir, "", false) })
}

func benchLog(b *testing.B, dir, name string, cold bool) {
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		if cold {
			b.StopTimer()
			removeTrailCache(b, dir)
			b.StartTimer()
		}
		r := openRepo(b, dir)
		entries, err := r.Log(name)
		r.Close()
		if err != nil {
			b.Fatal(err)
		}
		if len(entries) == 0 {
			b.Fatalf("log %q is empty", name)
		}
		n = len(entries)
	}
	b.ReportMetric(float64(n), "entries")
}

// removeTrailCache deletes the trail cache files of the repository at dir.
func removeTrailCache(b *testing.B, dir string) {
	files, err := filepath.Glob(filepath.Join(dir, "skillgit", "cache", "trail-*"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCandidates lists the open candidates, as `skillgit candidates` does, in a copy of
// the large repository that holds 1,000 of them (half of them approved). The goal is under
// 0.5 s.
func BenchmarkCandidates(b *testing.B) {
	dir := candidatesRepo(b)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		r := openRepo(b, dir)
		cs, err := r.Book().Candidates("open")
		r.Close()
		if err != nil {
			b.Fatal(err)
		}
		n = len(cs)
	}
	if n < openCandidates {
		b.Fatalf("listed %d open candidates; want at least %d", n, openCandidates)
	}
	b.ReportMetric(float64(n), "candidates")
}

// BenchmarkPublishStorage proposes, approves and publishes 1,000 candidates in a copy of the
// storage repository, each patching one skill, and compares the size of its objects folder
// (skillgit packs loose objects itself when they pile up) with that of the same repository
// after `git gc`; the goal is within 3×. It reports sizes in MiB of the files' bytes: base
// before the publishes, skillgit after them, gc after git gc, and the ratios of the totals
// and of the growth over base.
func BenchmarkPublishStorage(b *testing.B) {
	src := os.Getenv("SKILLGIT_BENCH_STORAGE_REPO")
	if src == "" {
		src = benchRepo(b)
	}
	publishes := envInt(b, "SKILLGIT_BENCH_PUBLISHES", 1000)
	for b.Loop() {
		b.StopTimer()
		dir := lifecycletest.BareCopy(b, src)
		base := dirBytes(b, filepath.Join(dir, "objects"))
		p := newPublisher(b, dir)
		b.StartTimer()
		for range publishes {
			p.publish(b, p.candidate(b))
		}
		b.StopTimer()
		after := dirBytes(b, filepath.Join(dir, "objects"))
		gc := lifecycletest.BareCopy(b, dir)
		git(b, gc, "gc", "--quiet")
		gced := dirBytes(b, filepath.Join(gc, "objects"))
		const mib = 1 << 20
		b.ReportMetric(float64(base)/mib, "MiB-base")
		b.ReportMetric(float64(after)/mib, "MiB-skillgit")
		b.ReportMetric(float64(gced)/mib, "MiB-gc")
		b.ReportMetric(float64(after)/float64(gced), "ratio")
		b.ReportMetric(float64(after-base)/float64(max(gced-base, 1)), "growth-ratio")
		b.ReportMetric(float64(publishes), "publishes")
		b.StartTimer()
	}
}

// publisher prepares approved candidates in a repository: each one patches the next skill of
// the publish branch, read from the current tip, so that it always changes something.
type publisher struct {
	dir    string
	skills []string // skill folders on the publish branch
	next   int
	tmp    string
}

func newPublisher(b *testing.B, dir string) *publisher {
	r := openRepo(b, dir)
	defer r.Close()
	res, err := r.Published().List()
	if err != nil {
		b.Fatal(err)
	}
	p := &publisher{dir: dir, tmp: b.TempDir()}
	for _, s := range res.Skills {
		if path.Base(s.Dir) == s.Name {
			p.skills = append(p.skills, s.Dir)
		}
	}
	if len(p.skills) == 0 {
		b.Fatalf("%s: no published skills to patch", dir)
	}
	return p
}

// candidate proposes a patch of the next skill and approves it, and returns its id. A patch
// the audit rates high risk cannot be published, so the next skill is taken instead.
func (p *publisher) candidate(b *testing.B) string {
	r := openRepo(b, p.dir)
	defer r.Close()
	for range 20 {
		folder := p.skills[p.next%len(p.skills)]
		p.next++
		from := p.revision(b, r, folder)
		res, err := r.Propose(lifecycle.ProposeOptions{ActOptions: lifecycle.ActOptions{Author: benchProposer}, From: from})
		if err != nil {
			b.Fatalf("propose %s: %v", folder, err)
		}
		if res.Risk == "high" {
			continue
		}
		if _, err := r.Approve(res.ID, "", lifecycle.ActOptions{Author: benchApprover}); err != nil {
			b.Fatalf("approve %s: %v", res.ID, err)
		}
		return res.ID
	}
	b.Fatal("20 proposals in a row were rated high risk")
	return ""
}

// revision writes the skill folder of the publish branch's tip to disk with one line added
// to its SKILL.md, and returns the folder.
func (p *publisher) revision(b *testing.B, r *lifecycle.Repo, folder string) string {
	dst := filepath.Join(p.tmp, strconv.Itoa(p.next), path.Base(folder))
	sub, err := fs.Sub(r.Git().Objects().TreeFS(r.Tree()), folder)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.CopyFS(dst, sub); err != nil {
		b.Fatalf("copying %s out of the tree: %v", folder, err)
	}
	md := filepath.Join(dst, "SKILL.md")
	f, err := os.OpenFile(md, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	_, err = fmt.Fprintf(f, "\nRevision %d: the steps above were checked again.\n", p.next)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	return dst
}

// publish opens the repository, publishes candidate id on the publish branch and closes it.
func (p *publisher) publish(b *testing.B, id string) {
	r := openRepo(b, p.dir)
	res, err := r.Publish(id, "", lifecycle.ActOptions{Author: benchApprover})
	r.Close()
	if err != nil {
		b.Fatalf("publish %s: %v", id, err)
	}
	if res.State != lifecycle.StatePublished {
		b.Fatalf("publish %s: state %s; want published", id, res.State)
	}
}

// candidatesRepo returns a copy of the large repository with at least 1,000 open candidates:
// the one named by SKILLGIT_BENCH_CANDIDATES_REPO, built there when it does not exist yet.
func candidatesRepo(b *testing.B) string {
	dst := os.Getenv("SKILLGIT_BENCH_CANDIDATES_REPO")
	if dst != "" {
		if _, err := os.Stat(dst); err == nil {
			return dst
		}
	}
	src := benchRepo(b)
	tmp := lifecycletest.BareCopy(b, src)
	r := openRepo(b, tmp)
	open, err := r.Book().Candidates("open")
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	p := newPublisher(b, tmp)
	for i := len(open); i < openCandidates; i++ {
		r := openRepo(b, tmp)
		res, err := r.Propose(lifecycle.ProposeOptions{ActOptions: lifecycle.ActOptions{Author: benchProposer},
			From: p.revision(b, r, p.skills[p.next%len(p.skills)])})
		p.next++
		if err == nil && i%2 == 0 {
			_, err = r.Approve(res.ID, "", lifecycle.ActOptions{Author: benchApprover})
		}
		r.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	if dst == "" {
		return tmp
	}
	if err := os.Rename(tmp, dst); err != nil {
		if err := os.CopyFS(dst, os.DirFS(tmp)); err != nil {
			b.Fatalf("keeping the candidates repository: %v", err)
		}
	}
	b.Logf("built %s with %d open candidates", dst, openCandidates)
	return dst
}

func openRepo(b *testing.B, dir string) *lifecycle.Repo {
	r, err := lifecycle.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// git runs the git command line in dir.
func git(b *testing.B, dir string, args ...string) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// dirBytes sums the sizes of the files under dir.
func dirBytes(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		n += fi.Size()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func envInt(b *testing.B, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive number", key, v)
	}
	return n
}
