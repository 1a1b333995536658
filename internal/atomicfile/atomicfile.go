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
	dir := filepath.Dir(name)
	if opts.DirPerm == 0 {
		opts.DirPerm = 0o755
	}
	if err := os.MkdirAll(dir, opts.DirPerm); err != nil {
		return err
	}
	tmp, untrack, err := interrupt.CreateTemp(dir, filenames.FileTempPrefix+"*")
	if err != nil {
		return err
	}
	defer untrack()
	if tempMade != nil {
		tempMade(tmp.Name())
	}
	err = fill(tmp, data, opts)
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// tempMade, when a test sets it, is called with the temporary file's path just after it is
// made and registered.
var tempMade func(path string)

// fill writes, syncs when asked, closes and sets the mode of tmp.
func fill(tmp *os.File, data []byte, opts Options) error {
	_, werr := tmp.Write(data)
	var serr error
	if opts.Sync && werr == nil {
		serr = tmp.Sync()
	}
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return err
	}
	if opts.Perm != 0 {
		return os.Chmod(tmp.Name(), opts.Perm)
	}
	return nil
}
