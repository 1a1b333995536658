package agentsync

import (
	"os"
	"path/filepath"
)

// cloneLock is the lock of one cached clone, a file named after it in the folder repo-locks
// beside the clones' folder, which holds clones only. It is held exclusive while the clone is
// created or fetched, and shared while a command reads it, so that no command reads refs
// another is rewriting. The system releases it when the process ends, however it ends, so a
// killed sync leaves no lock held; the file itself stays, as removing a lock file others may
// have open would let two commands hold it.
type cloneLock struct {
	f *os.File
}

// lockClone opens the lock of the cached clone in folder dir and takes it, exclusive or
// shared, waiting as long as another command holds it the other way.
func lockClone(dir string, exclusive bool) (*cloneLock, error) {
	locks := filepath.Join(filepath.Dir(filepath.Dir(dir)), "repo-locks")
	if err := os.MkdirAll(locks, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(locks, filepath.Base(dir)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	l := &cloneLock{f: f}
	if err := l.take(exclusive); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// share turns an exclusive lock into a shared one. For a moment between the two, another
// command may take the lock; what it fetches is then what this one reads.
func (l *cloneLock) share() error { return l.take(false) }

// release lets the lock go; a nil lock is fine.
func (l *cloneLock) release() {
	if l != nil && l.f != nil {
		_ = l.unlock()
		_ = l.f.Close()
		l.f = nil
	}
}
