package gitstore

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

func testRefsCAS(t *testing.T, r *Repo) {
	tree := mustTree(t, r)
	c1 := mustCommit(t, r, tree, "1")
	c2 := mustCommit(t, r, tree, "2", c1)
	const ref = "refs/heads/candidate/pdf-1"
	steps := []struct {
		name     string
		newH     Hash
		oldH     Hash
		wantErr  error
		wantHead Hash // ZeroHash: the ref must not exist afterwards
	}{
		{"create", c1, ZeroHash, nil, c1},
		{"create again", c2, ZeroHash, ErrRefChanged, c1},
		{"stale update", c2, c2, ErrRefChanged, c1},
		{"update", c2, c1, nil, c2},
		{"stale delete", ZeroHash, c1, ErrRefChanged, c2},
		{"delete", ZeroHash, c2, nil, ZeroHash},
		{"delete missing", ZeroHash, c2, ErrRefChanged, ZeroHash},
		{"delete absent as expected", ZeroHash, ZeroHash, nil, ZeroHash},
	}
	for _, s := range steps {
		err := r.Updates().Update(ref, s.newH, s.oldH, s.name)
		if !errors.Is(err, s.wantErr) || (s.wantErr == nil) != (err == nil) {
			t.Fatalf("%s: UpdateRef error = %v, want %v", s.name, err, s.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), ref) {
			t.Errorf("%s: error %q does not name the ref", s.name, err)
		}
		got, err := r.Refs().Get(ref)
		if s.wantHead.IsZero() {
			if !errors.Is(err, ErrRefNotFound) {
				t.Errorf("%s: Ref = %s, %v; want ErrRefNotFound", s.name, got, err)
			}
			continue
		}
		if err != nil || got != s.wantHead {
			t.Errorf("%s: Ref = %s, %v; want %s", s.name, got, err, s.wantHead)
		}
	}
	missing := mustBlob(t, OpenMemory(), "only elsewhere")
	if err := r.Updates().Update(ref, missing, ZeroHash, ""); err == nil {
		t.Error("UpdateRef pointed a ref at a missing object")
	}
	for _, name := range []string{"heads/main", "refs/heads/a..b", "refs/heads/x.lock", "refs/heads/a b", "refs/heads/", "HEAD"} {
		if err := r.Updates().Update(name, c1, ZeroHash, ""); err == nil {
			t.Errorf("UpdateRef accepted the name %q", name)
		}
	}
}

func testRefsList(t *testing.T, r *Repo) {
	c := mustCommit(t, r, mustTree(t, r), "1")
	names := []string{"refs/heads/main", "refs/heads/candidate/b", "refs/heads/candidate/a", "refs/skillgit/archive/z", "refs/tags/v1"}
	for _, n := range names {
		if err := r.Updates().Update(n, c, ZeroHash, "create"); err != nil {
			t.Fatal(err)
		}
	}
	tests := map[string][]string{
		"refs/heads/candidate/": {"refs/heads/candidate/a", "refs/heads/candidate/b"},
		"refs/heads/cand":       {"refs/heads/candidate/a", "refs/heads/candidate/b"},
		"refs/skillgit/":        {"refs/skillgit/archive/z"},
		"":                      {"refs/heads/candidate/a", "refs/heads/candidate/b", "refs/heads/main", "refs/skillgit/archive/z", "refs/tags/v1"},
		"refs/none/":            nil,
	}
	for prefix, want := range tests {
		t.Run(prefix, func(t *testing.T) {
			refs, err := r.Refs().List(prefix)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ref := range refs {
				if ref.Hash != c {
					t.Errorf("%s = %s, want %s", ref.Name, ref.Hash, c)
				}
				got = append(got, ref.Name)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Refs(%q) (-want +got):\n%s", prefix, diff)
			}
		})
	}
}

func testRefConflicts(t *testing.T, r *Repo) {
	c := mustCommit(t, r, mustTree(t, r), "1")
	if err := r.Updates().Update("refs/heads/a", c, ZeroHash, ""); err != nil {
		t.Fatal(err)
	}
	if err := r.Updates().Update("refs/heads/b/c", c, ZeroHash, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"refs/heads/a/x", "refs/heads/b"} {
		err := r.Updates().Update(name, c, ZeroHash, "")
		if err == nil || !strings.Contains(err.Error(), "conflicts") {
			t.Errorf("UpdateRef(%s) = %v, want a conflict", name, err)
		}
	}
	// Once refs/heads/b/c is gone, refs/heads/b can be created.
	if err := r.Updates().Update("refs/heads/b/c", ZeroHash, c, ""); err != nil {
		t.Fatal(err)
	}
	if err := r.Updates().Update("refs/heads/b", c, ZeroHash, ""); err != nil {
		t.Errorf("creating refs/heads/b after deleting refs/heads/b/c: %v", err)
	}
}

func testHead(t *testing.T, r *Repo) {
	head, err := r.Refs().HeadBranch()
	if err != nil || head != "refs/heads/main" {
		t.Fatalf("HeadBranch = %q, %v; want refs/heads/main", head, err)
	}
	if _, err := r.Refs().Get("HEAD"); !errors.Is(err, ErrRefNotFound) {
		t.Errorf("Ref(HEAD) on an unborn branch = %v, want ErrRefNotFound", err)
	}
	if err := r.Updates().SetHeadBranch("publish"); err != nil {
		t.Fatal(err)
	}
	if head, err = r.Refs().HeadBranch(); err != nil || head != "refs/heads/publish" {
		t.Errorf("HeadBranch = %q, %v; want refs/heads/publish", head, err)
	}
	c := mustCommit(t, r, mustTree(t, r), "1")
	if err := r.Updates().Update("refs/heads/publish", c, ZeroHash, ""); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Refs().Get("HEAD"); err != nil || got != c {
		t.Errorf("Ref(HEAD) = %s, %v; want %s", got, err, c)
	}
	for _, bad := range []string{"refs/tags/v1", "a..b"} {
		if err := r.Updates().SetHeadBranch(bad); err == nil {
			t.Errorf("SetHeadBranch(%q) succeeded", bad)
		}
	}
}

func testResolveRevision(t *testing.T, r *Repo) {
	tree := mustTree(t, r)
	c1 := mustCommit(t, r, tree, "1")
	c2 := mustCommit(t, r, tree, "2", c1)
	if err := r.Updates().Update("refs/heads/main", c2, ZeroHash, ""); err != nil {
		t.Fatal(err)
	}
	if err := r.Updates().Update("refs/skillgit/archive/old", c1, ZeroHash, ""); err != nil {
		t.Fatal(err)
	}
	tests := map[string]Hash{
		"main": c2, "refs/heads/main": c2, "HEAD": c2, c1.String(): c1,
		c1.String()[:10]: c1, "main~1": c1, "main^": c1, "skillgit/archive/old": c1,
	}
	for rev, want := range tests {
		got, err := r.Refs().ResolveRevision(rev)
		if err != nil || got != want {
			t.Errorf("ResolveRevision(%q) = %s, %v; want %s", rev, got, err, want)
		}
	}
	for _, rev := range []string{"nope", "", "main~5", "refs/heads/nope", "0000000"} {
		if _, err := r.Refs().ResolveRevision(rev); !errors.Is(err, ErrRefNotFound) {
			t.Errorf("ResolveRevision(%q) = %v, want ErrRefNotFound", rev, err)
		}
	}
}

// testConcurrentCAS moves one ref from 8 goroutines, 50 times each; every
// increment must survive.
func testConcurrentCAS(t *testing.T, r *Repo) {
	const workers, each = 8, 50
	const ref = "refs/heads/counter"
	start := mustCommit(t, r, mustTree(t, r), "0\n")
	if err := r.Updates().Update(ref, start, ZeroHash, "start"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := casIncrement(r, ref, fmt.Sprint("g", w)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkCounter(t, r, ref, workers*each)
}

// checkCounter checks that ref's history holds exactly n increments.
func checkCounter(t *testing.T, r *Repo, ref string, n int) {
	t.Helper()
	tip, err := r.Refs().Get(ref)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().Commit(tip)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(c.Message)[0]; got != fmt.Sprint(n) {
		t.Errorf("counter = %s, want %d", got, n)
	}
	depth := 0
	if err := r.History().WalkFirstParent(tip, func(Hash, *object.Commit) error { depth++; return nil }); err != nil {
		t.Fatal(err)
	}
	if depth != n+1 {
		t.Errorf("history holds %d commits, want %d", depth, n+1)
	}
}
