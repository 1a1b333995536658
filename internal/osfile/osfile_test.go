package osfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenFileAsOS checks that files opened here behave as those of os.OpenFile where the
// callers rely on it: a missing file, an exclusive create of one that exists, the permission
// bits of a new file under the umask, reads, writes and Stat.
func TestOpenFileAsOS(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a")
	if _, err := Open(name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open of a missing file: %v; want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if _, err := Open(name); !errors.As(err, &pe) || pe.Path != name || pe.Op != "open" {
		t.Fatalf("Open of a missing file: %#v; want a *fs.PathError naming it", err)
	}
	f, err := OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("exclusive create of an existing file: %v; want fs.ErrExist", err)
	}
	if err := WriteFile(name, []byte("two\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "b")
	if err := os.WriteFile(ref, []byte("two\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	got, want := stat(t, name), stat(t, ref)
	if got.Mode() != want.Mode() {
		t.Errorf("mode %v; os.WriteFile gives %v", got.Mode(), want.Mode())
	}
	r, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil || string(data) != "two\n" {
		t.Fatalf("read %q, %v; want the content WriteFile truncated the file to", data, err)
	}
	if fi, err := r.Stat(); err != nil || fi.Size() != 4 || r.Name() != name {
		t.Fatalf("Stat: %v, %v; name %q", fi, err, r.Name())
	}
}

func stat(t *testing.T, name string) fs.FileInfo {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// BenchmarkOpen opens and closes a small file here and with os.Open.
func BenchmarkOpen(b *testing.B) {
	name := filepath.Join(b.TempDir(), "ref")
	if err := os.WriteFile(name, []byte("0123456789012345678901234567890123456789\n"), 0o666); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		open func(string) (*os.File, error)
	}{{"osfile", Open}, {"os", os.Open}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				f, err := c.open(name)
				if err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}
