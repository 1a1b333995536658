package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/osfile"
)

// lockTimeout is how long a writer waits for another process to release
// a lock file, as git does for refs.
const lockTimeout = time.Second

// lockFile is git's lock protocol: "<target>.lock" is created exclusively,
// written, flushed to disk and renamed over the target, so readers see the
// old or the new content and never a partial one. Beside each lock it takes,
// skillgit records its owner (see lockowner.go), so that a lock left by a
// process that died can be told from one in use.
type lockFile struct {
	target  string
	f       *os.File
	owner   string // the owner record's path; empty when none was written
	done    bool
	untrack func()
}

// acquireLock creates target's lock file, creating missing parent
// folders, and retries with backoff while another process holds it. A lock
// whose owner record says its process is gone is removed, with a notice on
// stderr, and taken.
func (r *Locks) acquireLock(target string) (*lockFile, error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
		return nil, err
	}
	lockPath := target + ".lock"
	deadline := time.Now().Add(lockTimeout)
	wait := time.Millisecond
	for {
		if interrupt.Interrupted() {
			return nil, fmt.Errorf("%s: %w", lockPath, interrupt.ErrInterrupted)
		}
		l, err := r.tryLock(target, lockPath)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if r.breakStaleLock(lockPath) {
			continue
		}
		if time.Now().After(deadline) {
			return nil, r.lockedError(lockPath)
		}
		time.Sleep(wait/2 + rand.N(wait))
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// tryLock creates the lock file once, registers it for removal on every way
// out and records its owner.
func (r *Locks) tryLock(target, lockPath string) (*lockFile, error) {
	// A signal waits until the lock is registered and has its record, so that it never
	// leaves a lock without a record, or a record without a lock.
	done, err := interrupt.Critical()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lockPath, err)
	}
	defer done()
	f, err := osfile.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrNotExist) {
		// A concurrent ref deletion removed the emptied folder.
		if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
			return nil, err
		}
		f, err = osfile.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	}
	if err != nil {
		return nil, err
	}
	l := &lockFile{target: target, f: f}
	untrackLock := interrupt.Track(lockPath)
	l.owner = r.writeOwner(lockPath, f)
	untrackOwner := func() {}
	if l.owner != "" {
		untrackOwner = interrupt.Track(l.owner)
	}
	l.untrack = func() { untrackLock(); untrackOwner() }
	return l, nil
}

// commit writes data to the lock file, flushes it and renames it over the
// target. A signal waits until the lock is renamed and forgotten, so that the
// removal of the registered files never meets another process's new lock of
// the same name.
func (l *lockFile) commit(data []byte) error { return l.commitParts(data) }

// commitParts is commit of the content made of parts, one after the other, which spares
// joining a large file's parts in memory first.
func (l *lockFile) commitParts(parts ...[]byte) error {
	done, err := interrupt.Critical()
	if err != nil {
		l.release()
		return fmt.Errorf("%s: %w", l.target, err)
	}
	defer done()
	for _, p := range parts {
		if _, err = l.f.Write(p); err != nil {
			break
		}
	}
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
	l.finish()
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
	l.f.Close()
	os.Remove(l.f.Name())
	l.finish()
}

// finish removes the owner record of a lock that is gone and forgets both.
func (l *lockFile) finish() {
	l.done = true
	if l.owner != "" {
		os.Remove(l.owner)
	}
	l.untrack()
}
