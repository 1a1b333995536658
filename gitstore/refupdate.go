package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// Update moves the full ref name from oldH to newH by compare-and-swap.
// oldH == ZeroHash requires that the ref does not exist; newH == ZeroHash
// deletes it. When the ref does not hold oldH, nothing changes and the
// error matches ErrRefChanged. On disk the update follows git's lock-file
// protocol, so concurrent git commands and processes never see a
// half-written ref, removes a deleted ref from packed-refs too, and
// appends msg to the reflog where git would.
func (r *Updates) Update(name string, newH, oldH Hash, msg string) error {
	return r.UpdateWhileLocked(name, newH, oldH, msg, nil)
}

// UpdateWhileLocked is Update that runs fn, when not nil, after the ref is locked and
// found to hold oldH and before it moves: work that must happen only if the ref moves, such
// as bringing a checked-out branch's files up to date, is then never done for an update that
// loses a race. When fn fails, the ref stays where it was and fn's error is returned.
func (r *Updates) UpdateWhileLocked(name string, newH, oldH Hash, msg string, fn func() error) error {
	if err := CheckRefName(name); err != nil {
		return err
	}
	if !newH.IsZero() && !(*Objects)(r).hasObject(newH) {
		return fmt.Errorf("%s: object %s: %w; write it before pointing a ref at it", name, newH, plumbing.ErrObjectNotFound)
	}
	if r.held.on() {
		if fn != nil {
			return fmt.Errorf("%s: refs are held: work that must happen with the move waits for Land", name)
		}
		return (*Holds)(r).holdUpdate(name, newH, oldH, msg)
	}
	if fn == nil {
		fn = func() error { return nil }
	}
	if r.mem {
		return r.memUpdateRef(name, newH, oldH, fn)
	}
	return r.diskUpdateRef(name, newH, oldH, msg, fn)
}

func refChanged(name string, expected, actual Hash) error {
	return fmt.Errorf("%s: %w: expected %s, found %s; read it again and retry",
		name, ErrRefChanged, describeID(expected), describeID(actual))
}

func describeID(h Hash) string {
	if h.IsZero() {
		return "no ref"
	}
	return h.String()
}

func (r *Updates) diskUpdateRef(name string, newH, oldH Hash, msg string, fn func() error) error {
	if oldH.IsZero() && !newH.IsZero() {
		if err := r.checkRefConflict(name); err != nil {
			return err
		}
	}
	logEntry := (*Reflogs)(r).prepareReflog(msg)
	lock, err := (*Locks)(r).acquireLock((*Refs)(r).refPath(name))
	if err != nil {
		return fmt.Errorf("%s: locking ref: %w", name, r.explainLockError(name, err))
	}
	defer lock.release()
	cur, err := r.storedValue(name)
	if err != nil {
		return err
	}
	if cur != oldH {
		return refChanged(name, oldH, cur)
	}
	// From here the working tree, the reflog and the ref change together: a signal waits
	// until all are done, or, before the first, stops the update.
	done, err := interrupt.Critical()
	if err != nil {
		return fmt.Errorf("%s: %w before the update", name, err)
	}
	defer done()
	if err := fn(); err != nil {
		return err
	}
	if newH.IsZero() {
		return r.deleteRef(name, cur, lock)
	}
	if err := (*Reflogs)(r).logRefUpdate(name, cur, newH, logEntry); err != nil {
		return err
	}
	if err := lock.commit([]byte(newH.String() + "\n")); err != nil {
		return fmt.Errorf("%s: writing ref: %w", name, err)
	}
	return nil
}

// storedValue is currentValue as stored, without held moves: a ref read under its lock.
func (r *Updates) storedValue(name string) (Hash, error) {
	v, found, err := (*Refs)(r).storedRef(name)
	return currentHash(name, v, found, err)
}

// currentHash is the value of ref name read as v for an update.
func currentHash(name string, v refValue, found bool, err error) (Hash, error) {
	switch {
	case err != nil:
		return ZeroHash, err
	case !found:
		return ZeroHash, nil
	case v.target != "":
		return ZeroHash, fmt.Errorf("%s: is a symbolic ref to %s; update %s instead", name, v.target, v.target)
	}
	return v.hash, nil
}

// deleteRef deletes a locked ref, releases the lock, then removes the
// folders the deletion emptied (the lock file was in one of them).
func (r *Updates) deleteRef(name string, cur Hash, lock *lockFile) error {
	err := r.deleteLocked(name, cur)
	lock.release()
	if err == nil {
		removeEmptyDirs(filepath.Dir((*Refs)(r).refPath(name)), name)
		removeEmptyDirs(filepath.Dir((*Reflogs)(r).reflogPath(name)), name)
	}
	return err
}

// deleteLocked removes a ref whose lock the caller holds: first from
// packed-refs, so that no reader sees an older packed value surface, then
// the loose file and its reflog.
func (r *Updates) deleteLocked(name string, cur Hash) error {
	if cur.IsZero() {
		return nil
	}
	packed, err := (*Refs)(r).packedRefs()
	if err != nil {
		return err
	}
	if _, ok := packed[name]; ok {
		if err := r.removePackedRef(name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := os.Remove((*Refs)(r).refPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: deleting ref: %w", name, err)
	}
	(*Reflogs)(r).deleteReflog(name)
	return nil
}

// removeEmptyDirs removes folders emptied by deleting ref name, stopping
// below the ref's namespace folder (refs/heads, refs/tags, ...).
func removeEmptyDirs(dir, name string) {
	depth := strings.Count(name, "/") - 2
	for ; depth > 0; depth-- {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// checkRefConflict refuses to create refs/a/b next to an existing refs/a,
// or refs/a next to existing refs below refs/a/, as git does.
func (r *Updates) checkRefConflict(name string) error {
	packed, err := (*Refs)(r).packedRefs()
	if err != nil {
		return err
	}
	for i := strings.Index(name, "/"); i >= 0; i = nextSlash(name, i) {
		parent := name[:i]
		if _, ok := packed[parent]; ok {
			return refConflict(name, parent)
		}
		if fi, err := os.Lstat((*Refs)(r).refPath(parent)); err == nil && !fi.IsDir() {
			return refConflict(name, parent)
		}
	}
	for other := range packed {
		if strings.HasPrefix(other, name+"/") {
			return refConflict(name, other)
		}
	}
	if other := r.looseRefBelow(name); other != "" {
		return refConflict(name, other)
	}
	return nil
}

// looseRefBelow returns a loose ref inside the folder that ref name would
// replace, or "".
func (r *Updates) looseRefBelow(name string) string {
	var found string
	(*Refs)(r).walkLooseRefs(name+"/", func(other string) {
		if found == "" {
			found = other
		}
	})
	return found
}

func nextSlash(s string, i int) int {
	j := strings.Index(s[i+1:], "/")
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func refConflict(name, other string) error {
	return fmt.Errorf("%s: conflicts with existing ref %s (one ref cannot be a folder of another); delete or rename it first", name, other)
}

// explainLockError turns the file system's complaint about a folder in
// the way into a ref conflict.
func (r *Updates) explainLockError(name string, err error) error {
	if !isNotDir(err) && !errors.Is(err, fs.ErrExist) {
		return err
	}
	for i := strings.Index(name, "/"); i >= 0; i = nextSlash(name, i) {
		if fi, serr := os.Lstat((*Refs)(r).refPath(name[:i])); serr == nil && !fi.IsDir() {
			return refConflict(name, name[:i])
		}
	}
	return err
}
