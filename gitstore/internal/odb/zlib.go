package odb

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"sync"
)

// maxRatio bounds how much deflate can expand data: a declared size
// above it for the compressed bytes at hand is corrupt, and is refused
// before anything is allocated.
const maxRatio = 1032

// inflater is a reusable zlib reader over a byte slice.
type inflater struct {
	src bytes.Reader
	zr  io.ReadCloser
}

var inflaters sync.Pool

// getInflater returns an inflater reading z.
func getInflater(z []byte) (*inflater, error) {
	f, _ := inflaters.Get().(*inflater)
	if f == nil {
		f = &inflater{}
	}
	f.src.Reset(z)
	if f.zr == nil {
		zr, err := zlib.NewReader(&f.src)
		if err != nil {
			return nil, err
		}
		f.zr = zr
		return f, nil
	}
	if err := f.zr.(zlib.Resetter).Reset(&f.src, nil); err != nil {
		inflaters.Put(f)
		return nil, err
	}
	return f, nil
}

// put returns f to the pool.
func (f *inflater) put() {
	f.src.Reset(nil)
	inflaters.Put(f)
}

// checkDeclared refuses a declared size that the compressed bytes
// cannot hold.
func checkDeclared(zlen int, size int64) error {
	if size < 0 || size/maxRatio > int64(zlen) {
		return fmt.Errorf("declared size %d too large for %d compressed bytes", size, zlen)
	}
	return nil
}

// inflate decompresses the zlib stream z, which must hold exactly size
// bytes and end with a valid checksum, into a buffer of getBuf's.
func inflate(z []byte, size int64, spare bool) ([]byte, error) {
	if err := checkDeclared(len(z), size); err != nil {
		return nil, err
	}
	f, err := getInflater(z)
	if err != nil {
		return nil, err
	}
	defer f.put()
	out := getBuf(int(size), spare)
	if _, err := io.ReadFull(f.zr, out); err != nil {
		Release(out)
		return nil, fmt.Errorf("inflating %d bytes: %w", size, noEOF(err))
	}
	if err := expectEnd(f.zr); err != nil {
		Release(out)
		return nil, err
	}
	return out, nil
}

// expectEnd checks that a zlib stream has nothing left but its
// checksum, which reading to the end verifies.
func expectEnd(r io.Reader) error {
	var one [1]byte
	n, err := r.Read(one[:])
	for n == 0 && err == nil {
		n, err = r.Read(one[:])
	}
	if n > 0 {
		return errors.New("data longer than its declared size")
	}
	if err != io.EOF {
		return fmt.Errorf("end of data: %w", noEOF(err))
	}
	return nil
}

// noEOF turns an end of file inside a stream into ErrUnexpectedEOF.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// inflatePrefix decompresses the first n bytes of the zlib stream z.
func inflatePrefix(z []byte, n int) ([]byte, error) {
	f, err := getInflater(z)
	if err != nil {
		return nil, err
	}
	defer f.put()
	out := make([]byte, n)
	if _, err := io.ReadFull(f.zr, out); err != nil {
		return nil, fmt.Errorf("inflating %d bytes: %w", n, noEOF(err))
	}
	return out, nil
}
