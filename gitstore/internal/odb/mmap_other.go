//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package odb

import (
	"fmt"
	"os"
)

// mapFile gives access to size bytes of f where memory maps are not
// used: the file stays open and each slice is read with ReadAt.
func mapFile(f *os.File, size int64) (*region, error) {
	if size <= 0 {
		return nil, corruptf(f.Name(), "size %d is empty", size)
	}
	g, err := os.Open(f.Name())
	if err != nil {
		return nil, fmt.Errorf("reopening %s: %w", f.Name(), err)
	}
	return &region{r: g, size: size, unmap: g.Close}, nil
}
