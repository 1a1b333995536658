//go:build windows

package agentsync

import (
	"fmt"

	"golang.org/x/sys/windows"
)

func (l *cloneMutex) take(exclusive bool) error {
	// Windows does not turn a lock into another: let the held one go first.
	_ = l.unlock()
	var flags uint32
	if exclusive {
		flags = windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(windows.Handle(l.f.Fd()), flags, 0, 1, 0, ol); err != nil {
		return fmt.Errorf("%s: %w", l.f.Name(), err)
	}
	return nil
}

func (l *cloneMutex) unlock() error {
	return windows.UnlockFileEx(windows.Handle(l.f.Fd()), 0, 1, 0, new(windows.Overlapped))
}
