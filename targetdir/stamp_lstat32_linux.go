//go:build linux && (386 || arm || mips || mipsle)

package targetdir

import (
	"bytes"

	"golang.org/x/sys/unix"
)

// lstatAtz is fstatat without following a final link, of path, NUL-terminated, below folder
// fd. A path with a NUL before its end is refused.
func lstatAtz(fd int, path []byte, st *unix.Stat_t) error {
	if bytes.IndexByte(path, 0) != len(path)-1 {
		return unix.EINVAL
	}
	return unix.Fstatat(fd, string(path[:len(path)-1]), st, unix.AT_SYMLINK_NOFOLLOW)
}
