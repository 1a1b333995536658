//go:build !unix

package commitgraph

import "os"

// mapFile reads f into memory where memory maps are not available.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	return readFile(f, size)
}
