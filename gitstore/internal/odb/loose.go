package odb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/skillgit/skillgit/internal/osfile"
)

// maxLooseHeader bounds the "type size\0" header of a loose object.
const maxLooseHeader = 32

// loosePath returns the file of the loose object id in dir.
func loosePath(dir string, id *[20]byte) string {
	h := hexID(*id)
	return filepath.Join(dir, h[:2], h[2:])
}

// openLooseFile returns the compressed bytes of a loose object and the function that lets
// them go; a missing file gives an error wrapping fs.ErrNotExist. A file from mapLooseMin up
// is mapped, not read: the stored folder trees of a large repository are megabytes, and
// reading one into new memory costs more than inflating it. The map lasts until done, since
// its content is inflated into memory of its own.
func openLooseFile(name string) ([]byte, func(), error) {
	f, err := osfile.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 1<<40 {
		return nil, nil, corruptf(name, "not a loose object file")
	}
	if st.Size() >= mapLooseMin {
		if g, err := mapFile(f, st.Size()); err == nil && g.mapped {
			return g.b, func() { _ = g.unmap() }, nil
		} else if err == nil {
			_ = g.unmap()
		}
	}
	z := make([]byte, st.Size())
	if _, err := io.ReadFull(f, z); err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return z, func() {}, nil
}

// mapLooseMin is the size of a loose object file from which it is mapped to be read.
const mapLooseMin = 1 << 20

// looseHeader inflates the header of a loose object and returns its
// type and size, and the content bytes inflated with it.
func looseHeader(name string, r io.Reader) (Type, int64, []byte, error) {
	var buf [maxLooseHeader]byte
	n, err := io.ReadFull(r, buf[:])
	if err != nil && err != io.ErrUnexpectedEOF {
		return 0, 0, nil, corruptf(name, "inflating header: %v", noEOF(err))
	}
	typ, size, nul, err := parseLooseHeader(name, buf[:n])
	if err != nil {
		return 0, 0, nil, err
	}
	return typ, size, append([]byte(nil), buf[nul+1:n]...), nil
}

// parseLooseHeader reads the "type size\0" header at the start of b and returns the type,
// the size and where its NUL is.
func parseLooseHeader(name string, b []byte) (Type, int64, int, error) {
	b = b[:min(len(b), maxLooseHeader)]
	nul := bytes.IndexByte(b, 0)
	sp := bytes.IndexByte(b[:max(nul, 0)], ' ')
	if nul < 0 || sp < 0 {
		return 0, 0, 0, corruptf(name, "bad loose object header")
	}
	typ, ok := parseType(string(b[:sp]))
	size, err := strconv.ParseInt(string(b[sp+1:nul]), 10, 64)
	if !ok || err != nil || size < 0 || (len(b[sp+1:nul]) > 1 && b[sp+1] == '0') {
		return 0, 0, 0, corruptf(name, "bad loose object header %q", b[:nul])
	}
	return typ, size, nul, nil
}

// readStored reads a loose object held in stored blocks whose header lies in the first
// block; false for any other, which the inflater reads.
func readStored(name string, id *[20]byte, z []byte, limit int64) (Type, int64, []byte, bool, error) {
	s, ok := parseStored(z)
	if !ok || bytes.IndexByte(s.first[:min(len(s.first), maxLooseHeader)], 0) < 0 {
		return 0, 0, nil, false, nil
	}
	typ, size, nul, err := parseLooseHeader(name, s.first)
	switch {
	case err != nil:
		return 0, 0, nil, true, err
	case limit >= 0 && size > limit:
		return typ, size, nil, true, tooLarge(id, typ, size, limit)
	case size != int64(s.size-nul-1):
		return 0, 0, nil, true, corruptf(name, "%d bytes of data, %d declared", s.size-nul-1, size)
	}
	data, ok := s.content(nul + 1)
	if !ok {
		return 0, 0, nil, true, corruptf(name, "inflating: zlib: invalid checksum")
	}
	return typ, size, data, true, nil
}

// readLoose reads the loose object id from dir, refusing one larger than
// limit (no limit when negative) before inflating its content.
func readLoose(dir string, id *[20]byte, limit int64, headerOnly bool) (Type, int64, []byte, error) {
	name := loosePath(dir, id)
	z, done, err := openLooseFile(name)
	if err != nil {
		return 0, 0, nil, err
	}
	defer done()
	if !headerOnly {
		if typ, size, data, ok, err := readStored(name, id, z, limit); ok {
			return typ, size, data, err
		}
	}
	f, err := getInflater(z)
	if err != nil {
		return 0, 0, nil, corruptf(name, "%v", err)
	}
	defer f.put()
	typ, size, head, err := looseHeader(name, f.zr)
	if err != nil || headerOnly {
		return typ, size, nil, err
	}
	if limit >= 0 && size > limit {
		return typ, size, nil, tooLarge(id, typ, size, limit)
	}
	data, err := looseContent(f.zr, z, size, head)
	if err != nil {
		return 0, 0, nil, corruptf(name, "%v", err)
	}
	return typ, size, data, nil
}

// looseContent inflates the rest of a loose object's content after the
// bytes head that came with its header.
func looseContent(r io.Reader, z []byte, size int64, head []byte) ([]byte, error) {
	if err := checkDeclared(len(z), size); err != nil {
		return nil, err
	}
	if int64(len(head)) > size {
		return nil, errors.New("data longer than its declared size")
	}
	out := make([]byte, size)
	copy(out, head)
	if _, err := io.ReadFull(r, out[len(head):]); err != nil {
		return nil, fmt.Errorf("inflating: %w", noEOF(err))
	}
	return out, expectEnd(r)
}

// hasLoose reports whether dir holds the loose object id.
func hasLoose(dir string, id *[20]byte) bool {
	_, err := os.Lstat(loosePath(dir, id))
	return err == nil
}

// isNotExist reports whether err says a file is missing.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist)
}

// tooLarge returns the error for an object above the limit.
func tooLarge(id *[20]byte, typ Type, size, limit int64) error {
	what := "object"
	if typ != 0 {
		what = typ.String()
	}
	return fmt.Errorf("%s %s: %w: %d bytes, limit %d", what, hexID(*id), ErrTooLarge, size, limit)
}
