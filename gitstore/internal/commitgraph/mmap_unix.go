//go:build unix

package commitgraph

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFile maps f's size bytes read-only. The mapping stays valid after f is
// closed; git replaces graph files by rename, so a mapped file is never
// truncated under a reader. On failure it falls back to reading.
func mapFile(f *os.File, size int) ([]byte, fileMap, error) {
	if size > 0 {
		data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
		if err == nil {
			return data, fileMap{
				release: func() error { return syscall.Munmap(data) },
				// The pages stay in the page cache, and the file never changes, so a
				// later read of the map finds the same bytes there.
				drop: func() { _ = unix.Madvise(data, unix.MADV_DONTNEED) },
			}, nil
		}
	}
	return readFile(f, size)
}
