package targetdir

import (
	"io/fs"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysStamp reads the stamp fields of info from the system's stat data.
func sysStamp(info fs.FileInfo) (stamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{}, false
	}
	return stamp{
		size:  st.Size,
		mtime: st.Mtim.Nano(),
		ctime: st.Ctim.Nano(),
		ino:   st.Ino,
		mode:  st.Mode,
	}, true
}

func unixStamp(rel string, st *unix.Stat_t) stamp {
	return stamp{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino, mode: st.Mode, path: rel}
}

// stampChecker checks the stamps of skill folders in one target folder with one lstat per
// entry, relative to the target folder's descriptor.
type stampChecker struct {
	dir *os.File
	fd  int
}

func newStampChecker(root *os.Root) (*stampChecker, error) {
	dir, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	return &stampChecker{dir: dir, fd: int(dir.Fd())}, nil
}

func (c *stampChecker) close() error { return c.dir.Close() }

// trust reports whether skill folder name still holds what record, its manifest record of
// stamps, describes, and that record is not racy against ref, the manifest's modification
// time: no entry was changed, added, removed or renamed since the stamps were taken.
func (c *stampChecker) trust(name, record string, ref int64) bool {
	r, ok := parseStamps(record)
	if !ok || r.newest >= ref || !singleElement(name) {
		return false
	}
	sc := stampScratchPool.Get().(*stampScratch)
	defer stampScratchPool.Put(sc)
	if err := sc.stampsAt(c.fd, name, r.paths); err != nil {
		return false
	}
	var sum [16]byte
	sum, sc.hashed = stampSumInto(sc.stamps, sc.hashed)
	return hexEqual(sum, r.digest)
}

// stampScratch holds the buffers one check of a folder's stamps works in, kept from one
// folder to the next.
type stampScratch struct {
	stamps []stamp
	path   []byte // the path stated, NUL-terminated
	hashed []byte // what stampSum hashes
}

var stampScratchPool = sync.Pool{New: func() any { return new(stampScratch) }}

// openDirAt opens folder name of folder dfd for stat calls only, failing on a link.
func openDirAt(dfd int, name string) (int, error) {
	return unix.Openat(dfd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}

// stampsAt stamps folder name of folder fd and its entries at paths into sc.stamps, with one
// lstat each: the
// folder first, refused unless it is a folder, then each path through it.
//
// A path is resolved from fd, so a link put in place of the folder or of a folder on the
// path between two of these calls would be followed. That cannot make a changed folder pass:
// every entry is stamped with its inode and change time, which moving, linking or editing a
// file changes, so stamps that all match are those of the very files written, unedited; and
// the link itself has a stamp of its own, which the next sync finds.
func (sc *stampScratch) stampsAt(fd int, name string, paths []string) error {
	sc.stamps = sc.stamps[:0]
	var st unix.Stat_t
	if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return unix.ENOTDIR
	}
	sc.stamps = append(sc.stamps, unixStamp(".", &st))
	for _, p := range paths {
		sc.path = append(append(append(append(sc.path[:0], name...), '/'), p...), 0)
		if err := lstatAtz(fd, sc.path, &st); err != nil {
			return err
		}
		sc.stamps = append(sc.stamps, unixStamp(p, &st))
	}
	return nil
}
