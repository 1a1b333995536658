package commitgraph

import (
	"io"
	"os"
)

// readFile reads exactly size bytes of f, the size its Stat reported, so
// the allocation is bounded by the file's real length.
func readFile(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
