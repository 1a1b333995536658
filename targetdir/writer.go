package targetdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// Writer makes every change a sync makes inside one folder. Names are slash paths relative
// to that folder. There are three: the real one, confined to the folder by an os.Root; the
// recorder of a dry run, which takes the changes down and makes none (see Disk); and one that
// fails every write, for tests.
type Writer interface {
	// Mkdir creates a folder.
	Mkdir(name string) error
	// WriteFile creates a new file (never an existing one) holding what r yields.
	WriteFile(name string, r io.Reader, perm fs.FileMode) error
	// Symlink creates a symbolic link name pointing at target.
	Symlink(target, name string) error
	// Rename moves from to to, replacing a file but not a non-empty folder.
	Rename(from, to string) error
	// Exchange swaps two entries atomically; errors.ErrUnsupported when the system cannot.
	Exchange(a, b string) error
	// RemoveAll removes name and everything below it, never following a link.
	RemoveAll(name string) error
	// Track registers the temporary entry name (a folder and what is below it when dir) for
	// removal if the process stops before the sync is done with it, and returns the function
	// that forgets it: call that once the entry is renamed into place or removed.
	Track(name string, dir bool) (untrack func())
}

// NewRootWriter returns the Writer that changes the folder of root and nothing outside it.
func NewRootWriter(root *os.Root) Writer { return rootWriter{root} }

type rootWriter struct{ root *os.Root }

func (w rootWriter) Mkdir(name string) error { return w.root.Mkdir(name, 0o755) }

func (w rootWriter) WriteFile(name string, r io.Reader, perm fs.FileMode) error {
	f, err := w.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}

func (w rootWriter) Symlink(target, name string) error { return w.root.Symlink(target, name) }
func (w rootWriter) Rename(from, to string) error      { return w.root.Rename(from, to) }
func (w rootWriter) Exchange(a, b string) error        { return exchange(w.root, a, b) }
func (w rootWriter) RemoveAll(name string) error       { return w.root.RemoveAll(name) }

func (w rootWriter) Track(name string, dir bool) func() {
	p := filepath.Join(w.root.Name(), filepath.FromSlash(name))
	if dir {
		return interrupt.TrackDir(p)
	}
	return interrupt.Track(p)
}

// noTrack is the Track of writers that write nothing.
func noTrack(string, bool) func() { return func() {} }

// Change is one change that a dry run records instead of making it.
type Change struct {
	// Op is what the change does: mkdir, write, symlink, rename, exchange, remove, or store
	// (a copy written into the link store).
	Op string
	// Name is the entry changed, a slash path relative to the target folder; for store, the
	// folder of the link store.
	Name string
	// To is the new name of a rename, the other entry of an exchange, or a link's target.
	To string
}

// recorder is the Writer of a dry run: every change succeeds, is recorded and is not made.
// Skills are written at once, so it takes a lock.
type recorder struct {
	mu      sync.Mutex
	changes []Change
}

func (r *recorder) add(op, name, to string) error {
	r.mu.Lock()
	r.changes = append(r.changes, Change{Op: op, Name: name, To: to})
	r.mu.Unlock()
	return nil
}

func (r *recorder) list() []Change {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.changes)
}

func (r *recorder) Mkdir(name string) error { return r.add("mkdir", name, "") }

// WriteFile reads r to its end, so that hashes computed while reading stay right.
func (r *recorder) WriteFile(name string, data io.Reader, _ fs.FileMode) error {
	if _, err := io.Copy(io.Discard, data); err != nil {
		return err
	}
	return r.add("write", name, "")
}

func (r *recorder) Symlink(target, name string) error { return r.add("symlink", name, target) }
func (r *recorder) Rename(from, to string) error      { return r.add("rename", from, to) }
func (r *recorder) Exchange(a, b string) error        { return r.add("exchange", a, b) }
func (r *recorder) RemoveAll(name string) error       { return r.add("remove", name, "") }

// Track registers nothing, as nothing is written.
func (r *recorder) Track(name string, dir bool) func() { return noTrack(name, dir) }

// FailWriter is a Writer whose every change fails with Err, to show that a code path
// writes nothing or survives a failing disk.
type FailWriter struct{ Err error }

func (w FailWriter) fail(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: w.err()}
}

func (w FailWriter) err() error {
	if w.Err == nil {
		return fmt.Errorf("writes are not allowed")
	}
	return w.Err
}

// Mkdir fails.
func (w FailWriter) Mkdir(name string) error { return w.fail("mkdir", name) }

// WriteFile fails.
func (w FailWriter) WriteFile(name string, _ io.Reader, _ fs.FileMode) error {
	return w.fail("write", name)
}

// Symlink fails.
func (w FailWriter) Symlink(_, name string) error { return w.fail("symlink", name) }

// Rename fails.
func (w FailWriter) Rename(from, _ string) error { return w.fail("rename", from) }

// Exchange fails.
func (w FailWriter) Exchange(a, _ string) error { return w.fail("exchange", a) }

// RemoveAll fails.
func (w FailWriter) RemoveAll(name string) error { return w.fail("remove", name) }

// Track registers nothing, as nothing is written.
func (FailWriter) Track(name string, dir bool) func() { return noTrack(name, dir) }
