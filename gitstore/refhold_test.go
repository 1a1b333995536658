package gitstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// heldFixture is a repository with main at c1, refs/heads/gone at c1, and commits c2 and c3
// to move refs to.
type heldFixture struct {
	r          *Repo
	c1, c2, c3 Hash
}

func newHeldFixture(t *testing.T, r *Repo) heldFixture {
	t.Helper()
	tree := mustTree(t, r)
	f := heldFixture{r: r, c1: mustCommit(t, r, tree, "1")}
	f.c2 = mustCommit(t, r, tree, "2", f.c1)
	f.c3 = mustCommit(t, r, tree, "3", f.c2)
	for _, name := range []string{"refs/heads/main", "refs/heads/gone"} {
		if err := r.Updates().Update(name, f.c1, ZeroHash, "test"); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// holdMoves holds main moved twice, gone deleted and made created.
func (f heldFixture) holdMoves(t *testing.T) {
	t.Helper()
	f.r.Holds().Hold()
	updates := f.r.Updates()
	steps := []struct {
		name       string
		newH, oldH Hash
	}{
		{"refs/heads/main", f.c2, f.c1},
		{"refs/heads/main", f.c3, f.c2},
		{"refs/heads/gone", ZeroHash, f.c1},
		{"refs/heads/made", f.c2, ZeroHash},
	}
	for _, s := range steps {
		if err := updates.Update(s.name, s.newH, s.oldH, "held "+s.name); err != nil {
			t.Fatalf("held update of %s: %v", s.name, err)
		}
	}
	if err := updates.Update("refs/heads/main", f.c2, f.c1, "stale"); !errors.Is(err, ErrRefChanged) {
		t.Errorf("a held update from a value the held move replaced = %v, want ErrRefChanged", err)
	}
}

// refMap lists the refs under refs/heads/ by name.
func refMap(t *testing.T, r *Repo) map[string]Hash {
	t.Helper()
	refs, err := r.Refs().List("refs/heads/")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Hash{}
	for _, ref := range refs {
		out[ref.Name] = ref.Hash
	}
	return out
}

func TestHeldRefsAreSeenHereAndLandTogether(t *testing.T) {
	for name, open := range map[string]newRepoFunc{"disk": diskRepo(false), "memory": memoryRepo} {
		t.Run(name, func(t *testing.T) {
			f := newHeldFixture(t, open(t))
			f.holdMoves(t)
			held := map[string]Hash{"refs/heads/main": f.c3, "refs/heads/made": f.c2}
			if diff := cmp.Diff(held, refMap(t, f.r)); diff != "" {
				t.Errorf("refs seen while held (-want +got):\n%s", diff)
			}
			if !f.r.Holds().Holding() {
				t.Fatal("Holding is false after Hold")
			}
			if f.r.WorktreeDir() != "" {
				if got := strings.TrimSpace(gitRun(t, f.r.WorktreeDir(), "rev-parse", "main", "gone")); got != f.c1.String()+"\n"+f.c1.String() {
					t.Errorf("git sees main and gone at %q while held, want both at c1", got)
				}
			}
			if err := f.r.Holds().Land(nil); err != nil {
				t.Fatal(err)
			}
			if f.r.Holds().Holding() {
				t.Error("still holding after Land")
			}
			if diff := cmp.Diff(held, refMap(t, f.r)); diff != "" {
				t.Errorf("refs after Land (-want +got):\n%s", diff)
			}
			if f.r.WorktreeDir() == "" {
				return
			}
			if got := gitRun(t, f.r.WorktreeDir(), "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"); got != "refs/heads/made "+f.c2.String()+"\nrefs/heads/main "+f.c3.String()+"\n" {
				t.Errorf("git for-each-ref after Land = %q", got)
			}
			if got := gitRun(t, f.r.WorktreeDir(), "reflog", "show", "--format=%gs", "refs/heads/main"); got != "held refs/heads/main\ntest\n" {
				t.Errorf("git reflog main = %q, want one line for the landing", got)
			}
			ident := gitRun(t, f.r.WorktreeDir(), "var", "GIT_COMMITTER_IDENT")
			want, _, _ := strings.Cut(ident, "> ")
			for _, ref := range []string{"refs/heads/main", "refs/heads/made"} {
				if got := gitRun(t, f.r.WorktreeDir(), "reflog", "show", "-1", "--format=%gn <%ge", ref); strings.TrimSpace(got) != want {
					t.Errorf("the landing's reflog line of %s is by %q, want git's committer %q", ref, strings.TrimSpace(got), want)
				}
			}
		})
	}
}

func TestHeldRefsLandNothing(t *testing.T) {
	boom := errors.New("local changes")
	tests := map[string]struct {
		// meanwhile is what happens while the moves are held; work is what Land runs; gone
		// is where the ref gone is after that.
		meanwhile func(f heldFixture)
		work      func() error
		wantErr   error
		gone      func(f heldFixture) Hash
	}{
		"a ref moved": {
			meanwhile: func(f heldFixture) {
				gitRun(t, f.r.WorktreeDir(), "update-ref", "refs/heads/gone", f.c2.String())
			},
			work:    func() error { t.Error("Land ran its work though a ref had moved"); return nil },
			wantErr: ErrRefChanged,
			gone:    func(f heldFixture) Hash { return f.c2 },
		},
		"the work fails": {
			meanwhile: func(heldFixture) {},
			work:      func() error { return boom },
			wantErr:   boom,
			gone:      func(f heldFixture) Hash { return f.c1 },
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newHeldFixture(t, diskRepo(false)(t))
			f.holdMoves(t)
			tt.meanwhile(f)
			if err := f.r.Holds().Land(tt.work); !errors.Is(err, tt.wantErr) {
				t.Fatalf("Land = %v, want %v", err, tt.wantErr)
			}
			want := map[string]Hash{"refs/heads/main": f.c1, "refs/heads/gone": tt.gone(f)}
			if diff := cmp.Diff(want, refMap(t, f.r)); diff != "" {
				t.Errorf("refs after a failed Land (-want +got):\n%s", diff)
			}
			checkNoLocks(t, f.r)
		})
	}
}

func TestHeldRefsLockedByAnother(t *testing.T) {
	f := newHeldFixture(t, diskRepo(false)(t))
	f.holdMoves(t)
	lock := f.r.Refs().refPath("refs/heads/made") + ".lock"
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.r.Holds().Land(nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("Land with made locked = %v, want ErrLocked", err)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("the other process's lock is gone: %v", err)
	}
	want := map[string]Hash{"refs/heads/main": f.c1, "refs/heads/gone": f.c1}
	if diff := cmp.Diff(want, refMap(t, f.r)); diff != "" {
		t.Errorf("refs after a locked Land (-want +got):\n%s", diff)
	}
}

func TestHeldRefsDropAndWork(t *testing.T) {
	f := newHeldFixture(t, diskRepo(false)(t))
	f.holdMoves(t)
	if err := f.r.Updates().UpdateWhileLocked("refs/heads/main", f.c1, f.c3, "work", func() error { return nil }); err == nil {
		t.Error("an update with work that must happen with the move was held")
	}
	f.r.Holds().Drop()
	want := map[string]Hash{"refs/heads/main": f.c1, "refs/heads/gone": f.c1}
	if diff := cmp.Diff(want, refMap(t, f.r)); diff != "" {
		t.Errorf("refs after Drop (-want +got):\n%s", diff)
	}
	if err := f.r.Updates().Update("refs/heads/main", f.c2, f.c1, "after"); err != nil {
		t.Errorf("an update after Drop: %v", err)
	}
	if got := gitRun(t, f.r.WorktreeDir(), "rev-parse", "main"); strings.TrimSpace(got) != f.c2.String() {
		t.Errorf("an update after Drop did not reach the disk: main at %s", got)
	}
}

// checkNoLocks fails when a lock file is left under the repository's refs.
func checkNoLocks(t *testing.T, r *Repo) {
	t.Helper()
	err := filepath.WalkDir(r.GitDir(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".lock") {
			t.Errorf("lock file left: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
