package cachefile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "entry")
	if err := os.WriteFile(name, []byte("twelve bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		file  string
		limit int64
		want  string
		ok    bool
	}{
		{"whole", name, 12, "twelve bytes", true},
		{"over the limit", name, 11, "", false},
		{"missing", filepath.Join(dir, "none"), 100, "", false},
		{"a folder", dir, 1 << 20, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Read(tt.file, tt.limit)
			if string(got) != tt.want || ok != tt.ok {
				t.Errorf("Read(%s, %d) = %q, %v; want %q, %v", tt.file, tt.limit, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBuildIDNamesTheToolchain(t *testing.T) {
	if id := BuildID(); id == "" || id == " " {
		t.Errorf("BuildID() = %q, want the build and its Go version", id)
	}
}
