//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package odb

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFile maps size bytes of f read-only into memory. The map stays
// valid after f is closed and after the file is deleted.
func mapFile(f *os.File, size int64) (*region, error) {
	if noMmap {
		return readerRegion(f, size)
	}
	if size <= 0 || int64(int(size)) != size {
		return nil, corruptf(f.Name(), "size %d cannot be mapped", size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", f.Name(), err)
	}
	return &region{b: b, size: size, mapped: true, unmap: func() error { return syscall.Munmap(b) }}, nil
}

// dropPages releases the pages of the shared, read-only map b from the process's resident
// memory; the next read of them maps them again from the page cache or the file.
func dropPages(b []byte) {
	_ = unix.Madvise(b, unix.MADV_DONTNEED)
}
