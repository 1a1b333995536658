package odb

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// storedRepo is a repository holding, loose, one blob of size bytes that git wrote in
// stored blocks (core.looseCompression 0), and the blob's id and content.
func storedRepo(t *testing.T, size int) (string, [20]byte, []byte) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	git(t, dir, "config", "core.looseCompression", "0")
	var content bytes.Buffer
	for i := 0; content.Len() < size; i++ {
		fmt.Fprintf(&content, "line %d of a blob stored, not compressed\n", i)
	}
	data := content.Bytes()[:size]
	id := parseID(t, strings.TrimSpace(gitInput(t, dir, data, "hash-object", "-w", "--stdin")))
	return dir, id, data
}

// looseFile returns the file of the loose object id in the repository at dir.
func looseFile(t *testing.T, dir string, id [20]byte) string {
	t.Helper()
	return loosePath(objectsDir(t, dir), &id)
}

// TestStoredLooseReadAsGitWroteIt checks that loose objects git wrote in stored blocks, one
// block and many, mapped and read, are read through the stored path as git reads them.
func TestStoredLooseReadAsGitWroteIt(t *testing.T) {
	for _, size := range []int{100, 70 << 10, mapLooseMin + 12345} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			dir, id, want := storedRepo(t, size)
			if _, ok := parseStored(readFile(t, looseFile(t, dir, id))); !ok {
				t.Fatal("git's stored object is not read as stored blocks")
			}
			db := openDB(t, dir)
			typ, got, err := db.Read(id, -1)
			if err != nil || typ != Blob || !bytes.Equal(got, want) {
				t.Fatalf("Read = %v, %d bytes, %v; want a blob of %d bytes", typ, len(got), err, len(want))
			}
			if _, _, err := db.Read(id, int64(size-1)); !errors.Is(err, ErrTooLarge) {
				t.Errorf("Read with a limit below the size: %v, want ErrTooLarge", err)
			}
		})
	}
}

// TestStoredLooseDamage checks that a stored object with a changed byte, a wrong length, or
// a size that differs from its data is refused as corrupt, and that a compressed object is
// not taken for a stored one.
func TestStoredLooseDamage(t *testing.T) {
	cases := map[string]func(z []byte) []byte{
		"content": func(z []byte) []byte { z[len(z)/2] ^= 1; return z },
		"sum":     func(z []byte) []byte { z[len(z)-1] ^= 1; return z },
		"length":  func(z []byte) []byte { z[3] ^= 1; return z },
		"size": func(z []byte) []byte {
			i := bytes.IndexByte(z, ' ')
			z[i+1] = '9' // "blob 70000" declared "blob 90000", its block unchanged
			return z
		},
		"truncated": func(z []byte) []byte { return z[:len(z)-3] },
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			dir, id, _ := storedRepo(t, 70000)
			file := looseFile(t, dir, id)
			z := readFile(t, file)
			os.Chmod(file, 0o644)
			writeBytes(t, file, damage(z))
			if _, _, err := openDB(t, dir).Read(id, -1); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Read of a damaged stored object: %v, want ErrCorrupt", err)
			}
		})
	}
	var b bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&b, zlib.BestSpeed)
	zw.Write(bytes.Repeat([]byte("compressed "), 1000))
	zw.Close()
	if _, ok := parseStored(b.Bytes()); ok {
		t.Error("a compressed stream was read as stored blocks")
	}
}

// FuzzStored checks the stored-block reader against zlib: whatever it reads, zlib inflates to
// the same header and content, and what zlib refuses it never reads.
func FuzzStored(f *testing.F) {
	for _, body := range [][]byte{[]byte("blob 5\x00hello"), append([]byte("tree 70000\x00"), bytes.Repeat([]byte("e"), 70000)...)} {
		var b bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&b, zlib.NoCompression)
		zw.Write(body)
		zw.Close()
		f.Add(b.Bytes())
		f.Add(b.Bytes()[:b.Len()-1])
	}
	id := [20]byte{1}
	f.Fuzz(func(t *testing.T, z []byte) {
		typ, size, data, ok, err := readStored("fuzz", &id, z, 1<<20)
		if !ok || err != nil {
			return
		}
		zr, zerr := zlib.NewReader(bytes.NewReader(z))
		if zerr != nil {
			t.Fatalf("read as stored blocks, but zlib refuses the header: %v", zerr)
		}
		all, zerr := io.ReadAll(zr)
		if zerr != nil {
			t.Fatalf("read as stored blocks, but zlib fails: %v", zerr)
		}
		want := append([]byte(fmt.Sprintf("%s %d\x00", typ, size)), data...)
		if !bytes.Equal(all, want) {
			t.Fatalf("stored read %q, zlib %q", want, all)
		}
	})
}
