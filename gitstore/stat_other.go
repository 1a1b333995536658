//go:build !linux

package gitstore

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat copies the portable part of the stat data into an index entry;
// git rereads files whose other fields differ and still finds them clean.
func fillStat(e *index.Entry, fi fs.FileInfo) {
	e.ModifiedAt = fi.ModTime()
	e.Size = uint32(fi.Size())
}

// inode is unknown where the stat data is not portable.
func inode(fs.FileInfo) uint32 { return 0 }

// statID is unknown here: no lock gets an owner record, and git's rule stands for all.
func statID(fs.FileInfo) (string, bool) { return "", false }
