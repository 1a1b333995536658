package packs

import (
	"io/fs"
	"os"
	"syscall"
)

// mine reports whether this user owns the file fi describes.
func mine(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
