//go:build !unix

package commitgraph

import "os"

// mapFile reads f into memory where memory maps are not available.
func mapFile(f *os.File, size int) ([]byte, fileMap, error) {
	return readFile(f, size)
}
