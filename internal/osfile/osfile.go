// Package osfile opens files on the paths that open one small file after another: a ref, a
// lock, a lock's owner record, a loose object. On Linux, os.OpenFile offers every file it
// opens to the network poller, which a regular file always refuses: four fcntl calls and an
// epoll_ctl around each open, more than the open itself where system calls are dear. The
// files opened here are the same *os.File, made with one open and one fcntl.
package osfile

import "os"

// Open opens name for reading, as os.Open does.
func Open(name string) (*os.File, error) { return OpenFile(name, os.O_RDONLY, 0) }

// WriteFile writes data to name, creating it with perm or truncating it, as os.WriteFile does.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	f, err := OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
