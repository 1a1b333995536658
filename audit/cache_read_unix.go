//go:build unix

package audit

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// readBounded appends the content of the file name to buf if it holds at
// most limit bytes, and returns buf even on failure, for reuse. It
// opens the file without following a symbolic link and without waiting
// on a named pipe, and reads with plain system calls: a cache hit is
// little more than this read, and the os package's file setup would
// double its cost.
func readBounded(name string, limit int64, buf []byte) ([]byte, error) {
	fd, err := openNoFollow(name)
	if err != nil {
		return buf, err
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return buf, fmt.Errorf("%s: larger than %d bytes", name, limit)
			}
			buf = append(buf, make([]byte, max(len(buf), 512))...)[:len(buf)]
		}
		want := cap(buf) - len(buf)
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return buf, fmt.Errorf("%s: %w", name, err)
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		// A short read of a regular file is its end. Were it not, the
		// entry would be cut, and a cut entry fails its checksum: the
		// worst case is a miss, never a wrong hit, and a hit saves the
		// system call that would read the end.
		if n < want {
			return buf, nil
		}
	}
}

func openNoFollow(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if !errors.Is(err, syscall.EINTR) {
			if err != nil {
				return -1, fmt.Errorf("%s: %w", name, err)
			}
			return fd, nil
		}
	}
}

// openEntryFile opens the cache file name for reading, without following a symbolic link and
// without waiting on a named pipe.
func openEntryFile(name string) (*os.File, error) {
	fd, err := openNoFollow(name)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}
