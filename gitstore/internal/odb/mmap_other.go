//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package odb

import "os"

// mapFile gives access to size bytes of f where memory maps are not
// used: see readerRegion.
func mapFile(f *os.File, size int64) (*region, error) {
	return readerRegion(f, size)
}

// dropPages does nothing where files are not mapped.
func dropPages([]byte) {}
