package testenv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFiles writes files, named by slash paths relative to dir, creating folders as needed.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// RemoveAll removes dir and everything below it, and fails the test if it cannot.
func RemoveAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
}

// SkillMD returns a SKILL.md for the skill name, with a description and the body lines as
// paragraphs.
func SkillMD(name string, body ...string) string {
	return "---\nname: " + name + "\ndescription: Helps with " + name + ".\n---\n# " + name + "\n\n" + strings.Join(body, "\n\n") + "\n"
}

// FileInfos returns the files below dir by path, to tell later whether one was added, removed
// or rewritten; a missing dir has none.
func FileInfos(t testing.TB, dir string) map[string]fs.FileInfo {
	t.Helper()
	out := map[string]fs.FileInfo{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		out[p] = info
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}
