package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/procowner"
)

// AutoPackThreshold is the default number of loose objects above which
// MaybePack packs them, git's gc.auto.
const AutoPackThreshold = 6700

// packLockName is the lock file, in the objects folder, that keeps two
// processes from packing at once.
const packLockName = "skillgit-pack.lock"

// packLockStale is the age after which a pack lock is taken to be left
// over from a process that died. Taking it over is safe: two packers
// would each delete only objects they packed themselves.
const packLockStale = time.Hour

// LooseObjectEstimate estimates the number of loose objects the way git's
// gc --auto does: the entries of objects/17 times 256. It is 0 for a
// repository in memory.
func (r *Packs) LooseObjectEstimate() (int, error) {
	if r.mem {
		return 0, nil
	}
	dir := filepath.Join((*Objects)(r).objectsDir(), "17")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("counting loose objects: %w", err)
	}
	n := 0
	for _, e := range entries {
		if _, ok := parseHex("17" + e.Name()); ok {
			n++
		}
	}
	return n * 256, nil
}

// MaybePack packs the loose objects, as PackLoose does, when
// LooseObjectEstimate is above threshold, and reports whether it packed
// any. A threshold of 0 or less turns packing off, as gc.auto=0 does.
func (r *Packs) MaybePack(threshold int) (bool, error) {
	if threshold <= 0 || r.loose.below(threshold) {
		return false, nil
	}
	n, err := r.LooseObjectEstimate()
	if err != nil || n <= threshold {
		r.loose.estimated(n)
		return false, err
	}
	packed, err := r.PackLoose()
	return packed > 0, err
}

// looseCount remembers the last estimate of the loose objects and how many this process has
// written since: a batch of 1,000 publishes asks after each whether to pack, and reading a
// folder of the object store for each answer costs more than the publish's own writes.
type looseCount struct {
	mu       sync.Mutex
	known    bool
	estimate int
	since    int // objects written since the estimate
}

// wrote counts an object written loose.
func (c *looseCount) wrote() {
	c.mu.Lock()
	c.since++
	c.mu.Unlock()
}

// estimated records an estimate just made.
func (c *looseCount) estimated(n int) {
	c.mu.Lock()
	c.known, c.estimate, c.since = true, n, 0
	c.mu.Unlock()
}

// below reports whether the last estimate and the objects written since stay within
// threshold, so that counting again is not needed; objects other processes write meanwhile
// are counted by their own.
func (c *looseCount) below(threshold int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.known && c.estimate+c.since <= threshold
}

// PackLoose writes every loose object, referenced or not, into one new
// pack file with its index, then deletes the loose copies of the objects
// it packed and the fan-out folders that leaves empty. It returns the
// number of objects packed.
//
// Objects are deleted only once the pack and its index are complete and
// flushed to disk, and only those the pack holds, so objects that other
// processes write meanwhile stay loose until the next call. When another
// process is packing (objects/skillgit-pack.lock exists), PackLoose
// returns 0 and does nothing. A repository in memory has no loose objects.
func (r *Packs) PackLoose() (int, error) {
	if r.mem {
		return 0, nil
	}
	objDir := (*Objects)(r).objectsDir()
	unlock, ok, err := lockPacking(objDir)
	if err != nil || !ok {
		return 0, err
	}
	defer unlock()
	ids, err := listLoose(objDir)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	idx, err := writePack(objDir, ids)
	if err != nil {
		return 0, err
	}
	r.reindex()
	packed := inIndex(idx, ids)
	return len(packed), r.removeLoose(objDir, packed)
}

// reindex makes the object storage load the list of packs again.
func (r *Packs) reindex() {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if fsStorer, ok := r.storer.(reindexer); ok {
		fsStorer.Reindex()
	}
}

// lockPacking takes the pack lock and returns its release. It reports
// false, and no error, when another process holds the lock.
func lockPacking(objDir string) (func(), bool, error) {
	path := filepath.Join(objDir, packLockName)
	// A signal waits until the lock made here is registered, so that it never leaves one.
	done, err := interrupt.Critical()
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	defer done()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) && lockIsStale(path) {
		os.Remove(path)
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	}
	if errors.Is(err, fs.ErrExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: locking for packing: %w", path, err)
	}
	untrack := interrupt.Track(path)
	f.Write(procowner.Self().Marshal())
	f.Close()
	return func() { os.Remove(path); untrack() }, true, nil
}

// lockIsStale says whether the pack lock at path was left by a process that is gone, or is
// older than packLockStale.
func lockIsStale(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if time.Since(fi.ModTime()) > packLockStale {
		return true
	}
	data, err := readBounded(path, maxOwnerRecord)
	if err != nil {
		return false
	}
	o, _, err := procowner.Parse(data)
	return err == nil && o.Gone()
}
