package boundedfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"testing/fstest"
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

func TestUpTo(t *testing.T) {
	fsys := fstest.MapFS{"f": {Data: []byte("12345")}}
	tests := []struct {
		name  string
		limit int64
		want  string
	}{
		{"under the limit", 9, "12345"},
		{"at the limit", 5, "12345"},
		{"over the limit: one byte more than the limit", 3, "1234"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := UpTo(fsys, "f", tt.limit)
			if err != nil || string(got) != tt.want {
				t.Errorf("UpTo(f, %d) = %q, %v; want %q", tt.limit, got, err, tt.want)
			}
		})
	}
	if _, err := UpTo(fsys, "missing", 9); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v; want fs.ErrNotExist", err)
	}
}
