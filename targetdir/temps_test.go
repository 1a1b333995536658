package targetdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/procowner"
)

// stoppingWriter is the real writer of a sync that stops, as a signal stops the process,
// just after it makes its first temporary entry of the kind named: every registered file is
// removed then, and an entry that outlives that was not registered.
type stoppingWriter struct {
	Writer
	root    *os.Root
	prefix  string
	once    *sync.Once
	stopped *[]string
	errs    *[]error
}

func stopping(prefix string) (func(*os.Root) Writer, *[]string, *[]error) {
	var stopped []string
	var errs []error
	once := new(sync.Once)
	return func(root *os.Root) Writer {
		return stoppingWriter{Writer: NewRootWriter(root), root: root, prefix: prefix, once: once, stopped: &stopped, errs: &errs}
	}, &stopped, &errs
}

// after stops the process once name, just made, is the first entry of the kind named.
func (w stoppingWriter) after(name string, err error) error {
	top, _, _ := strings.Cut(name, "/")
	if err != nil || !strings.HasPrefix(top, w.prefix) {
		return err
	}
	w.once.Do(func() {
		interrupt.Cleanup()
		*w.stopped = append(*w.stopped, top)
		if _, err := w.root.Lstat(top); !errors.Is(err, fs.ErrNotExist) {
			*w.errs = append(*w.errs, fmt.Errorf("%s outlived interrupt.Cleanup (%v): it was not registered", top, err))
		}
	})
	return nil
}

func (w stoppingWriter) Mkdir(name string) error { return w.after(name, w.Writer.Mkdir(name)) }

func (w stoppingWriter) WriteFile(name string, r io.Reader, perm fs.FileMode) error {
	return w.after(name, w.Writer.WriteFile(name, r, perm))
}

func (w stoppingWriter) Symlink(target, name string) error {
	return w.after(name, w.Writer.Symlink(target, name))
}

func (w stoppingWriter) Rename(from, to string) error { return w.after(to, w.Writer.Rename(from, to)) }

// TestSyncStoppedRemovesTemporaryEntries stops a sync just after it makes each kind of
// temporary entry in the target folder, and finds the entry removed and none left.
func TestSyncStoppedRemovesTemporaryEntries(t *testing.T) {
	for _, c := range []struct {
		name, prefix string
		opts         Options
		remove       bool
	}{
		{name: "skill folder", prefix: filenames.SkillTempPrefix},
		{name: "manifest", prefix: filenames.ManifestDraftPrefix},
		{name: "link", prefix: filenames.SkillTempPrefix, opts: Options{Mode: Symlink}},
		{name: "removed skill", prefix: filenames.SkillOldPrefix, remove: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, target := t.TempDir(), t.TempDir()
			skills := writeSource(t, src, "v1", "alpha", "beta")
			if c.opts.Mode == Symlink {
				c.opts.LinkStore = t.TempDir()
			}
			if c.remove {
				syncOnce(t, src, skills, target, Options{})
				skills = skills[:1]
			}
			w, stopped, errs := stopping(c.prefix)
			c.opts.Disk = realDisk{wrap: w}
			p, err := Plan(os.DirFS(src), skills, target, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			_ = p.Apply() // fails or not, depending on what vanished
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if len(*stopped) != 1 {
				t.Fatalf("stopped at %v; want one %s entry", *stopped, c.prefix)
			}
			for _, err := range *errs {
				t.Error(err)
			}
			assertNoLeftovers(t, target)
			if _, err := os.Lstat(filepath.Join(target, filenames.FolderMutex)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the lock outlived the stopped sync: %v", err)
			}
		})
	}
}

// TestFolderMutexRemovedWhenStopped takes a folder's mutex and stops the process, as a signal
// does: the mutex goes, and releasing it afterwards is harmless.
func TestFolderMutexRemovedWhenStopped(t *testing.T) {
	dir, root, l := heldMutex(t)
	interrupt.Cleanup()
	if _, err := os.Lstat(filepath.Join(dir, filenames.FolderMutex)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the lock outlived interrupt.Cleanup: %v", err)
	}
	if err := l.release(); err != nil {
		t.Fatal(err)
	}
	if l2, err := takeMutex(root, dir, time.Second); err != nil {
		t.Fatalf("locking again: %v", err)
	} else if err := l2.release(); err != nil {
		t.Fatal(err)
	}
}

// TestFolderMutexRecordNamesItsOwner shows the mutex holding this process's owner record, which
// a second sync reads as a live owner.
func TestFolderMutexRecordNamesItsOwner(t *testing.T) {
	dir, root, l := heldMutex(t)
	defer l.release()
	h, err := readHolder(root)
	if err != nil || h == nil {
		t.Fatalf("reading the lock: %v, %v", h, err)
	}
	if h.owner == nil || *h.owner != procowner.Self() || h.stale() {
		t.Fatalf("lock owner %v, stale %v; want this process, live", h.owner, h.stale())
	}
	if _, err := takeMutex(root, dir, 100*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("second lock while this process holds it: %v; want ErrBusy", err)
	}
}

// TestFolderMutexReusedPID leaves a mutex whose record names a live process, but one that started
// at another time than the recorded owner: its id was reused, so the mutex is taken over at
// once. A mutex of the older form with that live id is still waited for.
func TestFolderMutexReusedPID(t *testing.T) {
	live := exec.Command("sleep", "60")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = live.Process.Kill(); _ = live.Wait() }()
	me := procowner.Self()
	if me.Start == 0 || me.Boot == "" {
		t.Fatalf("this system does not tell start times (%+v); the reused id cannot be told apart", me)
	}
	src := t.TempDir()
	skills := writeSource(t, src, "v1", "alpha")

	target := t.TempDir()
	reused := procowner.Owner{PID: live.Process.Pid, Start: 1, Boot: me.Boot, Host: me.Host}
	writeMode(t, filepath.Join(target, filenames.FolderMutex), fmt.Sprintf("%d 0badcafe\n%s", reused.PID, reused.Marshal()), 0o644)
	start := time.Now()
	if got := syncOnce(t, src, skills, target, Options{MutexWait: time.Minute}); got["alpha"] != ActionInstall {
		t.Fatalf("action %v; want install", got["alpha"])
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("waited %v for the lock of a reused process id", waited)
	}

	old := t.TempDir()
	writeMode(t, filepath.Join(old, filenames.FolderMutex), fmt.Sprintf("%d 0badcafe\n", live.Process.Pid), 0o644)
	_, err := Plan(os.DirFS(src), skills, old, Options{MutexWait: 200 * time.Millisecond})
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", live.Process.Pid)) {
		t.Fatalf("lock of the older form held by a live process: %v; want ErrBusy naming it", err)
	}
}

func TestParseMutexRecord(t *testing.T) {
	me := procowner.Self()
	full := mutexRecord()
	other := procowner.Owner{PID: 4242, Start: 7, Boot: "b", Host: "h"}
	for _, c := range []struct {
		record string
		pid    int
		owner  bool
	}{
		{"4242 0badcafe\n", 4242, false}, // the older form
		{"4242 0badcafe", 0, false},
		{"x 0badcafe\n", 0, false},
		{"-1 0badcafe\n", 0, false},
		{full, me.PID, true},
		{"4242 0badcafe\n" + string(other.Marshal()), 4242, true},
		{"4243 0badcafe\n" + string(other.Marshal()), 0, false},          // ids disagree
		{full[:strings.LastIndex(full, "host ")], 0, false},              // cut before the host line
		{full[:len(full)-1], 0, false},                                   // cut before the end
		{"4242 0badcafe\n" + strings.Repeat("boot x\n", 1000), 0, false}, // over the bound
	} {
		pid, owner := parseRecord(c.record)
		if pid != c.pid || (owner != nil) != c.owner {
			t.Errorf("parseRecord(%q) = %d, %v; want %d, owner %v", c.record, pid, owner, c.pid, c.owner)
		}
	}
	// Older versions read the process id from the record's first word, as before.
	if first, _, _ := strings.Cut(full, " "); first != fmt.Sprint(me.PID) {
		t.Errorf("record %q does not start with the process id, which older versions read", full)
	}
}

// heldMutex takes the mutex of a new folder, which is closed when the test ends.
func heldMutex(t *testing.T) (string, *os.Root, *folderMutex) {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	l, err := takeMutex(root, dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return dir, root, l
}
