package targetdir

import (
	"errors"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// exchange swaps two entries of root's folder with renameat2(RENAME_EXCHANGE), so that a
// reader sees one or the other and never neither. Both names must be single path elements:
// relative to the folder's descriptor they cannot leave it, and the last element of a name
// is never followed.
func exchange(root *os.Root, a, b string) error {
	if !singleElement(a) || !singleElement(b) {
		return errors.ErrUnsupported
	}
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	fd := int(d.Fd())
	err = unix.Renameat2(fd, a, fd, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return errors.ErrUnsupported
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// singleElement reports a name that is one path element.
func singleElement(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsRune(name, '/')
}
