//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// mapReadOnly maps size bytes of f read-only; false when it cannot.
func mapReadOnly(f *os.File, size int) ([]byte, bool) {
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	return b, err == nil
}
