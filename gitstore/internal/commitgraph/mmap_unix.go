//go:build unix

package commitgraph

import (
	"os"
	"syscall"
)

// mapFile maps f's size bytes read-only. The mapping stays valid after f is
// closed; git replaces graph files by rename, so a mapped file is never
// truncated under a reader. On failure it falls back to reading.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	if size > 0 {
		data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
		if err == nil {
			return data, func() error { return syscall.Munmap(data) }, nil
		}
	}
	return readFile(f, size)
}
