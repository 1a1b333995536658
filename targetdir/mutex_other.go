//go:build !unix

package targetdir

import "os"

// processAlive reports whether process pid exists, as far as the system can tell; where it
// cannot, a process is taken for alive and its lock is never cleared.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
