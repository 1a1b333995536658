//go:build linux && !386 && !arm && !mips && !mipsle

package targetdir

import (
	"bytes"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lstatAtz is fstatat without following a final link, of path, NUL-terminated, below folder
// fd; unlike unix.Fstatat it copies nothing. A path with a NUL before its end is refused.
func lstatAtz(fd int, path []byte, st *unix.Stat_t) error {
	if bytes.IndexByte(path, 0) != len(path)-1 {
		return unix.EINVAL
	}
	_, _, errno := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&path[0])), uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
