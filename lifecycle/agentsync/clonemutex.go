package agentsync

import (
	"os"
	"path/filepath"
)

// cloneMutex is the mutex of one cached clone: a file named after it in the folder repo-locks
// beside the clones' folder, which holds clones only, locked by the system. It is held
// exclusive while the clone is created or fetched, and shared while a command reads it, so
// that no command reads refs another is rewriting. The system releases it when the process
// ends, however it ends, so a killed sync leaves none held; the file itself stays, as removing
// a file others may have open would let two commands hold the mutex. It is no project's lock
// (.skillgit-sync.lock), which pins what a project installs.
type cloneMutex struct {
	f *os.File
}

// takeCloneMutex opens the mutex of the cached clone in folder dir and takes it, exclusive or
// shared, waiting as long as another command holds it the other way.
func takeCloneMutex(dir string, exclusive bool) (*cloneMutex, error) {
	mutexes := filepath.Join(filepath.Dir(filepath.Dir(dir)), "repo-locks")
	if err := os.MkdirAll(mutexes, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(mutexes, filepath.Base(dir)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	l := &cloneMutex{f: f}
	if err := l.take(exclusive); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// share turns an exclusive hold into a shared one. For a moment between the two, another
// command may take the mutex; what it fetches is then what this one reads.
func (l *cloneMutex) share() error { return l.take(false) }

// release lets the mutex go; a nil one is fine.
func (l *cloneMutex) release() {
	if l != nil && l.f != nil {
		_ = l.unlock()
		_ = l.f.Close()
		l.f = nil
	}
}
