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
)

// maxLooseHeader bounds the "type size\0" header of a loose object.
const maxLooseHeader = 32

// loosePath returns the file of the loose object id in dir.
func loosePath(dir string, id *[20]byte) string {
	h := hexID(*id)
	return filepath.Join(dir, h[:2], h[2:])
}

// readLooseFile reads the compressed bytes of a loose object; a missing
// file gives an error wrapping fs.ErrNotExist.
func readLooseFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 1<<40 {
		return nil, corruptf(name, "not a loose object file")
	}
	z := make([]byte, st.Size())
	if _, err := io.ReadFull(f, z); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return z, nil
}

// looseHeader inflates the header of a loose object and returns its
// type and size, and the content bytes inflated with it.
func looseHeader(name string, r io.Reader) (Type, int64, []byte, error) {
	var buf [maxLooseHeader]byte
	n, err := io.ReadFull(r, buf[:])
	if err != nil && err != io.ErrUnexpectedEOF {
		return 0, 0, nil, corruptf(name, "inflating header: %v", noEOF(err))
	}
	nul := bytes.IndexByte(buf[:n], 0)
	sp := bytes.IndexByte(buf[:max(nul, 0)], ' ')
	if nul < 0 || sp < 0 {
		return 0, 0, nil, corruptf(name, "bad loose object header")
	}
	typ, ok := parseType(string(buf[:sp]))
	size, err := strconv.ParseInt(string(buf[sp+1:nul]), 10, 64)
	if !ok || err != nil || size < 0 || (len(buf[sp+1:nul]) > 1 && buf[sp+1] == '0') {
		return 0, 0, nil, corruptf(name, "bad loose object header %q", buf[:nul])
	}
	return typ, size, append([]byte(nil), buf[nul+1:n]...), nil
}

// readLoose reads the loose object id from dir, refusing one larger than
// limit (no limit when negative) before inflating its content.
func readLoose(dir string, id *[20]byte, limit int64, headerOnly bool) (Type, int64, []byte, error) {
	name := loosePath(dir, id)
	z, err := readLooseFile(name)
	if err != nil {
		return 0, 0, nil, err
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
