//go:build !linux

package procowner

import (
	"errors"
	"os"
	"syscall"
)

// alive says whether a process with id pid exists, where the system lets us ask.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// startTime is unknown on this system.
func startTime(int) (uint64, bool) { return 0, false }

// bootID is unknown on this system.
func bootID() string { return "" }
