package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// lockTimeout is how long a writer waits for another process to release
// a lock file, as git does for refs.
const lockTimeout = time.Second

// lockFile is git's lock protocol: "<target>.lock" is created exclusively,
// written, flushed to disk and renamed over the target, so readers see the
// old or the new content and never a partial one.
type lockFile struct {
	target string
	f      *os.File
	done   bool
}

// acquireLock creates target's lock file, creating missing parent
// folders, and retries with backoff while another process holds it.
func acquireLock(target string) (*lockFile, error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
		return nil, err
	}
	lockPath := target + ".lock"
	deadline := time.Now().Add(lockTimeout)
	wait := time.Millisecond
	for {
		f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return &lockFile{target: target, f: f}, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			// A concurrent ref deletion removed the emptied folder.
			if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
				return nil, err
			}
		} else if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: %w; if no git or skillgit process is running, remove the file and retry", lockPath, ErrLocked)
		}
		time.Sleep(wait/2 + rand.N(wait))
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// commit writes data to the lock file, flushes it and renames it over the
// target.
func (l *lockFile) commit(data []byte) error {
	_, err := l.f.Write(data)
	if err == nil {
		err = l.f.Sync()
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = renameOver(l.f.Name(), l.target)
	}
	if err != nil {
		os.Remove(l.f.Name())
	}
	l.done = true
	return err
}

// renameOver renames src to dst. An empty folder left at dst by deleted
// refs below it is removed first, as git does.
func renameOver(src, dst string) error {
	err := os.Rename(src, dst)
	if err != nil {
		if fi, serr := os.Lstat(dst); serr == nil && fi.IsDir() && os.Remove(dst) == nil {
			err = os.Rename(src, dst)
		}
	}
	return err
}

// release removes the lock file unless it was committed.
func (l *lockFile) release() {
	if l.done {
		return
	}
	l.done = true
	l.f.Close()
	os.Remove(l.f.Name())
}
