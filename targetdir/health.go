package targetdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillgit/skillgit/internal/filenames"
)

// Health is what a target folder holds besides its skills: what an interrupted sync
// may have left there.
type Health struct {
	// Dir is the target folder.
	Dir string
	// Exists says whether the folder exists.
	Exists bool
	// Leftovers are the names of the entries only an interrupted sync leaves behind: its
	// temporary copies, replaced folders and manifest drafts, and a break file of a process
	// that died clearing a mutex. Sorted.
	Leftovers []string
	// Mutex is the folder's mutex; nil when there is none.
	Mutex *MutexHolder
	// Pending are the skills whose install began and was not recorded as finished. Sorted.
	Pending []string
	// ManifestErr is why the manifest cannot be read; nil when it can, or there is none.
	ManifestErr error
}

// MutexHolder is what the mutex of a target folder says of its owner.
type MutexHolder struct {
	// PID is the owner's process id; 0 when the record is not complete.
	PID int
	// Stale says the owner is gone: its process has ended, or it never finished its record.
	Stale bool
	// Age is how long ago the mutex was taken.
	Age time.Duration
}

// Check reports what an interrupted sync may have left in target folder dir. It
// writes nothing and takes no mutex.
func Check(dir string) (*Health, error) {
	h := &Health{Dir: dir}
	root, err := openExisting(dir)
	switch {
	case err != nil:
		return nil, err
	case root == nil:
		return h, nil
	}
	defer root.Close()
	h.Exists = true
	if h.Leftovers, err = leftovers(root, dir); err != nil {
		return nil, err
	}
	holder, err := readHolder(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, filenames.FolderMutex), err)
	}
	if holder != nil {
		h.Mutex = &MutexHolder{PID: holder.pid, Stale: holder.stale(), Age: time.Since(holder.mtime)}
	}
	man, err := readManifest(root, dir)
	if err != nil {
		h.ManifestErr = err
		return h, nil
	}
	for name, e := range man.Skills {
		if e.Written == pendingHash {
			h.Pending = append(h.Pending, name)
		}
	}
	slices.Sort(h.Pending)
	return h, nil
}

// leftovers lists the entries of root that only an interrupted sync leaves behind.
func leftovers(root *os.Root, dir string) ([]string, error) {
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if isLeftover(e.Name()) || e.Name() == filenames.MutexBreak && staleBreak(root) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// staleBreak reports a break file older than any process holds one.
func staleBreak(root *os.Root) bool {
	info, err := root.Lstat(filenames.MutexBreak)
	return err == nil && time.Since(info.ModTime()) > staleAge
}

// Repair removes what an interrupted sync left in target folder dir, holding the
// folder's mutex as a sync does, so that nothing a running sync writes is touched: a mutex of
// a process that has ended is cleared on the way, and a mutex a live sync holds makes it wait
// up to wait, then fail with ErrBusy. Each leftover entry is removed where it lies,
// without following links, and never outside dir. It returns the names it removed.
func Repair(dir string, wait time.Duration) ([]string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	defer root.Close()
	mutex, err := takeMutex(root, dir, wait)
	if err != nil {
		return nil, err
	}
	names, err := leftovers(root, dir)
	var removed []string
	for _, name := range names {
		if rerr := root.RemoveAll(name); rerr != nil {
			err = errors.Join(err, fmt.Errorf("%s: %w", filepath.Join(dir, name), rerr))
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(err, mutex.release())
}

// StoreLeftovers lists what interrupted syncs left in link store store (see
// Options.LinkStore): the temporary copies in its version folders, as paths relative
// to store, with forward slashes. A store that does not exist holds none.
func StoreLeftovers(store string) ([]string, error) {
	versions, err := os.ReadDir(store)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", store, err)
	}
	var out []string
	for _, v := range versions {
		if !v.IsDir() {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(store, v.Name()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(store, v.Name()), err)
		}
		for _, e := range entries {
			if isLeftover(e.Name()) {
				out = append(out, v.Name()+"/"+e.Name())
			}
		}
	}
	return out, nil
}

// RemoveStoreLeftover removes one entry StoreLeftovers listed, where it lies, without
// following links and never outside its version folder.
func RemoveStoreLeftover(store, rel string) error {
	version, name, ok := strings.Cut(rel, "/")
	if !ok || !isLeftover(name) || strings.Contains(name, "/") || version == "." || version == ".." {
		return fmt.Errorf("%s: not a leftover of the link store", rel)
	}
	root, err := os.OpenRoot(filepath.Join(store, version))
	if err != nil {
		return err
	}
	defer root.Close()
	return root.RemoveAll(name)
}
