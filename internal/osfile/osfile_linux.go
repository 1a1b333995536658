package osfile

import (
	"io/fs"
	"os"
	"syscall"
)

// OpenFile opens name as os.OpenFile does, with flag and, for a file it creates, perm's
// permission bits, and without offering the file to the poller: reads and writes block, as
// they do on a regular file anyway.
func OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}
