//go:build !unix

package audit

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// readBounded appends the content of the regular file name to buf if it
// holds at most limit bytes, and returns buf even on failure, for reuse.
// Anything else there, such as a symbolic link, is refused.
func readBounded(name string, limit int64, buf []byte) ([]byte, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return buf, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > limit {
		return buf, fmt.Errorf("%s: not a regular file of at most %d bytes", name, limit)
	}
	f, err := os.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	w := bytes.NewBuffer(buf)
	n, err := w.ReadFrom(io.LimitReader(f, limit+1))
	if err == nil && n > limit {
		err = fmt.Errorf("%s: larger than %d bytes", name, limit)
	}
	return w.Bytes(), err
}

// openEntryFile opens the cache file name for reading if it is a regular file.
func openEntryFile(name string) (*os.File, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	return os.Open(name)
}
