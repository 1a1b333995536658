// Package boundedfile reads small files that a hostile checkout or repository could replace:
// only a regular file is read, never through a link, and never more than a limit.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is the error for a path that is a link, folder, device or pipe.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error for a file larger than the limit.
var ErrTooLarge = errors.New("larger than the limit")

// Read returns the content of the regular file name, of at most limit bytes, and its
// description as found before it was opened. A link (even to a regular file), folder, device
// or pipe gives ErrNotRegular with that description, so a caller can say which it was; a
// larger file gives ErrTooLarge. The file opened must be the one described: one swapped
// between the look and the open is refused as not regular. A missing file gives an error
// for which errors.Is(err, fs.ErrNotExist) holds.
func Read(name string, limit int64) ([]byte, fs.FileInfo, error) {
	before, err := os.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, before, fmt.Errorf("%s: %w", name, ErrNotRegular)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, before, err
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(before, now) {
		return nil, before, fmt.Errorf("%s: %w (it changed while being opened)", name, ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, before, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, before, fmt.Errorf("%s: %w of %d bytes", name, ErrTooLarge, limit)
	}
	return data, before, nil
}

// UpTo reads file name of fsys, at most limit+1 bytes, so that a caller tells a file over
// limit from one at it without reading the rest. Unlike Read it leaves to fsys what may be
// opened: an os.Root's file system, for one, refuses a path that leads out of it.
func UpTo(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
