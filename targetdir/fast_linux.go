package targetdir

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"sync"

	"golang.org/x/sys/unix"
)

// copyBuffers are the buffers files are written through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// fastFolder writes one skill folder into the target folder with the system calls cp needs:
// every file is created relative to its folder's descriptor, never through a link, written
// and stated before it is closed, so the folder's stamps come with no extra lookup. The
// folder is written under its temporary name; put moves it into place as with any Writer.
type fastFolder struct {
	parent int // the target folder
	base   string
	dirs   map[string]int // open descriptors of the folders written, by path
	stamps []stamp
	subdir map[string]int // index in stamps of each folder below the top one
}

// newFolder starts writing folder base of the checker's target folder.
func (c *stampChecker) newFolder(base string) *fastFolder {
	return &fastFolder{parent: c.fd, base: base, dirs: map[string]int{}, subdir: map[string]int{}}
}

// dirOf returns the descriptor of the folder holding rel, and rel's last element.
func (f *fastFolder) dirOf(rel string) (int, string, error) {
	fd, ok := f.dirs[path.Dir(rel)]
	if !ok {
		return 0, "", &fs.PathError{Op: "write", Path: f.base + "/" + rel, Err: errors.New("its folder was not written first")}
	}
	return fd, path.Base(rel), nil
}

func (f *fastFolder) mkdir(rel string) error {
	pfd, name := f.parent, f.base
	if rel != "." {
		var err error
		if pfd, name, err = f.dirOf(rel); err != nil {
			return err
		}
		f.subdir[rel] = len(f.stamps)
	}
	if err := unix.Mkdirat(pfd, name, 0o755); err != nil {
		return &fs.PathError{Op: "mkdir", Path: f.base + "/" + rel, Err: err}
	}
	fd, err := openDirAt(pfd, name)
	if err != nil {
		return &fs.PathError{Op: "open", Path: f.base + "/" + rel, Err: err}
	}
	f.dirs[rel] = fd
	f.stamps = append(f.stamps, stamp{path: rel})
	return nil
}

func (f *fastFolder) writeFile(rel string, r io.Reader, perm fs.FileMode) error {
	pfd, name, err := f.dirOf(rel)
	if err != nil {
		return err
	}
	fd, err := unix.Openat(pfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return &fs.PathError{Op: "open", Path: f.base + "/" + rel, Err: err}
	}
	buf := copyBuffers.Get().(*[]byte)
	_, err = io.CopyBuffer(fdWriter(fd), r, *buf)
	copyBuffers.Put(buf)
	var st unix.Stat_t
	if err == nil {
		err = unix.Fstat(fd, &st)
	}
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: f.base + "/" + rel, Err: err}
	}
	f.stamps = append(f.stamps, unixStamp(rel, &st))
	return nil
}

func (f *fastFolder) symlink(target, rel string) error {
	pfd, name, err := f.dirOf(rel)
	if err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Symlinkat(target, pfd, name); err != nil {
		return &fs.PathError{Op: "symlink", Path: f.base + "/" + rel, Err: err}
	}
	if err := unix.Fstatat(pfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &fs.PathError{Op: "lstat", Path: f.base + "/" + rel, Err: err}
	}
	f.stamps = append(f.stamps, unixStamp(rel, &st))
	return nil
}

// written stamps the folders below the top one, now that nothing more is written into
// them, and closes them.
func (f *fastFolder) written() error {
	var st unix.Stat_t
	for rel, i := range f.subdir {
		if err := unix.Fstat(f.dirs[rel], &st); err != nil {
			return err
		}
		f.stamps[i] = unixStamp(rel, &st)
		unix.Close(f.dirs[rel])
		delete(f.dirs, rel)
	}
	return nil
}

// placed stamps the top folder, now in place, and returns the record of every stamp; ""
// when the folder cannot be stated.
func (f *fastFolder) placed() string {
	fd, ok := f.dirs["."]
	if !ok || len(f.dirs) != 1 {
		return ""
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return ""
	}
	f.stamps[0] = unixStamp(".", &st)
	return encodeStamps(f.stamps)
}

// close closes every descriptor still open.
func (f *fastFolder) close() {
	for rel, fd := range f.dirs {
		unix.Close(fd)
		delete(f.dirs, rel)
	}
}

// fdWriter writes to a descriptor.
type fdWriter int

func (w fdWriter) Write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := unix.Write(int(w), b[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return n, err
		}
		n += m
	}
	return n, nil
}
