//go:build unix

package agentsync

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

func (l *cloneMutex) take(exclusive bool) error {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	for {
		err := unix.Flock(int(l.f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			if err != nil {
				return fmt.Errorf("%s: %w", l.f.Name(), err)
			}
			return nil
		}
	}
}

func (l *cloneMutex) unlock() error { return unix.Flock(int(l.f.Fd()), unix.LOCK_UN) }
