package boundedfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	data, fi, err := Read(file, 5)
	if err != nil || string(data) != "12345" || fi.Size() != 5 {
		t.Fatalf("Read at the limit: %q, %v, %v", data, fi, err)
	}
	if _, _, err := Read(file, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v; want ErrTooLarge", err)
	}
	_, fi, err = Read(link, 100)
	if !errors.Is(err, ErrNotRegular) || fi == nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link: %v, %v; want ErrNotRegular with the link's description", fi, err)
	}
	if _, _, err := Read(dir, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("folder: %v; want ErrNotRegular", err)
	}
	if _, _, err := Read(filepath.Join(dir, "none"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v; want fs.ErrNotExist", err)
	}
}
