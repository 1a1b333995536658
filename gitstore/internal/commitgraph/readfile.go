package commitgraph

import (
	"io"
	"os"
)

// readFile reads exactly size bytes of f, the size its Stat reported, so
// the allocation is bounded by the file's real length.
func readFile(f *os.File, size int) ([]byte, fileMap, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fileMap{}, err
	}
	return data, fileMap{release: func() error { return nil }, drop: func() {}}, nil
}

// fileMap is how a graph file's bytes are let go: release ends them, drop only takes their
// pages out of the process's resident memory, which a map reads again when used; for a file
// read into memory it does nothing.
type fileMap struct {
	release func() error
	drop    func()
}
