//go:build unix

package targetdir

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists: signal 0 checks without sending anything.
// A process of another user exists too, though it may not be signalled.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
