// Package atomicfile writes files so that a reader sees the old content or
// the new, never a part: the data goes to a temporary file beside the
// target, which is then renamed into place.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/interrupt"
)

// Options controls a Write.
type Options struct {
	// Perm is the mode of the file written; 0 keeps the temporary file's
	// 0600.
	Perm os.FileMode
	// DirPerm is the mode of folders created on the way; 0 means 0755.
	DirPerm os.FileMode
	// Sync flushes the data to disk before the rename, for files that
	// must survive a crash whole; caches that read a cut file as a miss
	// skip it.
	Sync bool
}

// Write writes data to name atomically, creating its folder if needed.
// On failure the temporary file is removed and name is unchanged; a signal
// that stops the process part way removes it too.
func Write(name string, data []byte, opts Options) error {
	f, err := Create(name, opts)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a file being written atomically: what is written goes to a temporary file beside
// the target, which Commit renames into place and Abort removes. A signal that stops the
// process before either removes it too.
type File struct {
	name    string
	opts    Options
	tmp     *os.File
	untrack func()
}

// Create starts writing name atomically, creating its folder if needed. The caller must
// Commit or Abort the file.
func Create(name string, opts Options) (*File, error) {
	dir := filepath.Dir(name)
	if opts.DirPerm == 0 {
		opts.DirPerm = 0o755
	}
	if err := os.MkdirAll(dir, opts.DirPerm); err != nil {
		return nil, err
	}
	tmp, untrack, err := interrupt.CreateTemp(dir, filenames.FileTempPrefix+"*")
	if err != nil {
		return nil, err
	}
	if tempMade != nil {
		tempMade(tmp.Name())
	}
	return &File{name: name, opts: opts, tmp: tmp, untrack: untrack}, nil
}

// Write writes p to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.tmp.Write(p) }

// Commit syncs the file when asked, closes it, sets its mode and renames it into place. On
// failure the temporary file is removed and the target is unchanged.
func (f *File) Commit() error {
	defer f.untrack()
	err := finish(f.tmp, f.opts)
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.name)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
	}
	return err
}

// Abort closes and removes the temporary file, leaving the target unchanged.
func (f *File) Abort() {
	defer f.untrack()
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// tempMade, when a test sets it, is called with the temporary file's path just after it is
// made and registered.
var tempMade func(path string)

// finish syncs when asked, closes and sets the mode of tmp.
func finish(tmp *os.File, opts Options) error {
	var serr error
	if opts.Sync {
		serr = tmp.Sync()
	}
	cerr := tmp.Close()
	if err := errors.Join(serr, cerr); err != nil {
		return err
	}
	if opts.Perm != 0 {
		return os.Chmod(tmp.Name(), opts.Perm)
	}
	return nil
}
