package catalog

import (
	"io/fs"
	"os"
	"strings"
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

// stampChecker checks the stamps of skill folders in one target folder with as few system
// calls as lstat needs: each skill folder is opened once, never through a link, and its
// entries are stated relative to it.
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
	stamps, err := stampsAt(c.fd, name, r.paths)
	if err != nil {
		return false
	}
	return stampDigest(stamps) == r.digest
}

// openDirAt opens folder name of folder dfd for stat calls only, failing on a link.
func openDirAt(dfd int, name string) (int, error) {
	return unix.Openat(dfd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}

// lstatAt states slash path p below folder dfd without following any link on the way.
func lstatAt(dfd int, p string, st *unix.Stat_t) error {
	dir, last, nested := strings.Cut(p, "/")
	if !nested {
		return unix.Fstatat(dfd, p, st, unix.AT_SYMLINK_NOFOLLOW)
	}
	sub, err := openDirAt(dfd, dir)
	if err != nil {
		return err
	}
	defer unix.Close(sub)
	return lstatAt(sub, last, st)
}

// stampsAt stamps folder name of folder fd, never through a link, and its entries at paths.
func stampsAt(fd int, name string, paths []string) ([]stamp, error) {
	dfd, err := openDirAt(fd, name)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dfd)
	stamps := make([]stamp, 1, 1+len(paths))
	var st unix.Stat_t
	if err := unix.Fstat(dfd, &st); err != nil {
		return nil, err
	}
	stamps[0] = unixStamp(".", &st)
	for _, p := range paths {
		if err := lstatAt(dfd, p, &st); err != nil {
			return nil, err
		}
		stamps = append(stamps, unixStamp(p, &st))
	}
	return stamps, nil
}
