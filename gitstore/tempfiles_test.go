package gitstore

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// stopAt makes the process stop, as a signal does, just after the first temporary file whose
// name matches pattern is made: every registered file is removed then. It returns the paths
// that were removed so; a temporary file that was not registered stays and fails the test.
func stopAt(t *testing.T, pattern string) *[]string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	var stopped []string
	tempMade = func(path string) {
		if !re.MatchString(filepath.Base(path)) {
			return
		}
		interrupt.Cleanup()
		if _, err := os.Lstat(path); err == nil {
			t.Errorf("%s outlived interrupt.Cleanup: it was not registered", path)
		}
		stopped = append(stopped, path)
	}
	t.Cleanup(func() { tempMade = nil })
	return &stopped
}

// temps lists the entries below dir whose names match pattern.
func temps(t *testing.T, dir, pattern string) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if re.MatchString(d.Name()) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestLooseObjectTempRemovedWhenStopped(t *testing.T) {
	r, err := Init(t.TempDir(), InitOptions{Bare: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stopped := stopAt(t, `^tmp_obj_`)
	if _, err := r.Writes().WriteBlob([]byte("stopped part way\n")); err == nil {
		t.Fatal("writing an object whose temporary file vanished succeeded")
	}
	if len(*stopped) == 0 {
		t.Fatal("no temporary object file was made")
	}
	if left := temps(t, r.Objects().objectsDir(), `^tmp_`); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestPackTempsRemovedWhenStopped(t *testing.T) {
	for _, which := range []string{`^tmp_pack_`, `^tmp_idx_`} {
		t.Run(strings.Trim(which, "^_"), func(t *testing.T) {
			r, err := Init(t.TempDir(), InitOptions{Bare: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for _, s := range []string{"one\n", "two\n", "three\n"} {
				mustBlob(t, r, s)
			}
			stopped := stopAt(t, which)
			if _, err := r.Packs().PackLoose(); err == nil {
				t.Fatal("packing whose temporary file vanished succeeded")
			}
			if len(*stopped) != 1 {
				t.Fatalf("temporary files stopped at: %v; want one", *stopped)
			}
			if left := temps(t, r.Objects().objectsDir(), `^tmp_`); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
			if packs := temps(t, r.Objects().objectsDir(), `^pack-`); len(packs) > 0 {
				t.Errorf("a pack was published: %v", packs)
			}
		})
	}
}

func TestWorktreeTempRemovedWhenStopped(t *testing.T) {
	f := newWorktreeFixture(t)
	stopped := stopAt(t, `^\.skillgit-[0-9a-f]{16}\.tmp$`)
	if err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes); err == nil {
		t.Fatal("an update whose temporary file vanished succeeded")
	}
	if len(*stopped) == 0 {
		t.Fatal("no temporary file was made in the working tree")
	}
	if left := temps(t, f.dir, `^\.skillgit-[0-9a-f]{16}\.tmp$`); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestTempsLeaveNothingOnSuccess writes objects, packs them and updates a working tree with
// every temporary file registered, and finds none left.
func TestTempsLeaveNothingOnSuccess(t *testing.T) {
	f := newWorktreeFixture(t)
	if err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes); err != nil {
		t.Fatal(err)
	}
	if _, err := f.r.Packs().PackLoose(); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, f.dir, `^tmp_|^\.skillgit-[0-9a-f]{16}\.tmp$`); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
