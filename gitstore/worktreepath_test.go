package gitstore

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWorktreePath(t *testing.T) {
	r := diskRepo(false)(t)
	top := r.WorktreeDir()
	if err := os.MkdirAll(filepath.Join(top, "skills", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	link := filepath.Join(outside, "link")
	if err := os.Symlink(filepath.Join(top, "skills"), link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		abs  string
		want string
		ok   bool
	}{
		{filepath.Join(top, "skills", "a"), "skills/a", true},
		{top, ".", true},
		{filepath.Join(link, "a"), "skills/a", true},
		{outside, "", false},
		{filepath.Join(top, "missing"), "", false},
	}
	for _, tt := range tests {
		got, ok := r.WorktreePath(tt.abs)
		if got != tt.want || ok != tt.ok {
			t.Errorf("WorktreePath(%q) = %q, %v; want %q, %v", tt.abs, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := diskRepo(true)(t).WorktreePath(top); ok {
		t.Error("a bare repository has a working tree path")
	}
}
