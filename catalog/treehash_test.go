//go:build unix

package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// The helpers shared with the other packages built on lifecycle.
var (
	gitRun = testenv.GitIsolated
)

// writeTree writes files (path → content; content "->T" makes a link to T, a trailing
// "/" in the path an empty folder, a "*" prefix of the path an executable file) below dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		exe := strings.HasPrefix(p, "*")
		p = strings.TrimPrefix(p, "*")
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasPrefix(content, "->"):
			err = os.Symlink(strings.TrimPrefix(content, "->"), full)
		case exe:
			err = os.WriteFile(full, []byte(content), 0o755)
		default:
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// gitTree commits the work tree of a new repository at dir and returns the tree id of sub
// and its `git ls-tree -r` listing.
func gitTree(t testing.TB, dir, sub string) (string, string) {
	t.Helper()
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "--allow-empty", "-m", "x")
	return gitRun(t, dir, "rev-parse", "HEAD:"+sub), strings.ReplaceAll(strings.TrimSuffix(gitRun(t, dir, "ls-tree", "-r", "-z", "HEAD:"+sub), "\x00"), "\x00", "\n")
}

func listing(files []TreeFile) string {
	var b strings.Builder
	for i, f := range files {
		if i > 0 {
			b.WriteByte('\n')
		}
		kind := "blob"
		fmt.Fprintf(&b, "%s %s %s\t%s", f.Mode, kind, f.ID, f.Path)
	}
	return b.String()
}

func hashDir(t testing.TB, dir, sub string, opts TreeHashOptions) (string, []TreeFile, error) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	return TreeHash(root, sub, opts)
}

func TestTreeHashMatchesGit(t *testing.T) {
	cases := map[string]map[string]string{
		"flat": {"s/SKILL.md": "---\nname: s\n---\nBody.\n", "s/notes.txt": ""},
		"nested": {
			"s/SKILL.md": "x", "s/ref/a.md": "a", "s/ref/deep/er/b.md": "b", "s/scripts/run.sh": "echo",
		},
		"executable": {"s/SKILL.md": "x", "*s/scripts/run.sh": "#!/bin/sh\necho hi\n", "s/scripts/plain.sh": "echo"},
		"symlinks": {
			"s/SKILL.md": "x", "s/link": "->SKILL.md", "s/up": "->../../etc/passwd", "s/abs": "->/nowhere",
			"s/d/rel": "->../SKILL.md", "s/dirlink": "->d",
		},
		"empty folders": {"s/SKILL.md": "x", "s/empty/": "", "s/a/b/c/": "", "s/a/f": "f"},
		"tricky order": {
			"s/a": "1", "s/a.b": "2", "s/a-b": "3", "s/a0": "4", "s/b/a": "5", "s/b.c": "6", "s/b-c/x": "7",
			"s/a_/x": "8", "s/A": "9", "s/é": "10", "s/ab/x": "11", "s/a b": "12",
		},
		"dir vs file prefix": {"s/foo/x": "1", "s/foo.txt": "2", "s/foo-bar": "3", "s/foo0": "4"},
		"large file":         {"s/SKILL.md": strings.Repeat("line of text\n", 50000)},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, files)
			id, ls := gitTree(t, dir, "s")
			got, gotFiles, err := hashDir(t, dir, "s", TreeHashOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got != id {
				t.Errorf("tree id %s, git says %s", got, id)
			}
			if l := listing(gotFiles); l != ls {
				t.Errorf("files:\n%s\ngit:\n%s", l, ls)
			}
		})
	}
}

func TestTreeHashWholeRepository(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"x/SKILL.md": "1", "y/a/b": "2", "z": "3", "x.y": "->x"})
	_, _ = gitTree(t, dir, "x")
	want := gitRun(t, dir, "rev-parse", "HEAD^{tree}")
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// The repository's own .git folder is not part of a committed tree: hash without it.
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	got, _, err := TreeHash(root, ".", TreeHashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("tree id %s, git says %s", got, want)
	}
}

func TestTreeHashChangesWithContentModeAndType(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"s/SKILL.md": "x", "s/run.sh": "echo"})
	base, _, err := hashDir(t, dir, "s", TreeHashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "s", "run.sh")
	seen := map[string]string{base: "base"}
	steps := []struct {
		name string
		do   func() error
	}{
		{"execute bit", func() error { return os.Chmod(run, 0o755) }},
		{"content", func() error { return os.WriteFile(run, []byte("echo!"), 0o755) }},
		{"symlink in place of file", func() error {
			if err := os.Remove(run); err != nil {
				return err
			}
			return os.Symlink("echo!", run)
		}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatal(err)
		}
		id, _, err := hashDir(t, dir, "s", TreeHashOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := seen[id]; ok {
			t.Errorf("%s: same id as %s", s.name, prev)
		}
		seen[id] = s.name
	}
}

func TestTreeHashRefusesLargeFilesAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"s/SKILL.md": "x", "s/ref/big.bin": strings.Repeat("b", 2048)})
	_, _, err := hashDir(t, dir, "s", TreeHashOptions{MaxFileSize: 1024})
	if err == nil || !strings.Contains(err.Error(), "ref/big.bin") || !strings.Contains(err.Error(), "larger than the limit") {
		t.Fatalf("err = %v, want the big file refused by name", err)
	}
	if _, _, err := hashDir(t, dir, "s", TreeHashOptions{MaxFileSize: 4096}); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "s", "ref", "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = hashDir(t, dir, "s", TreeHashOptions{})
	var ute *UnexpectedTypeError
	if !errors.As(err, &ute) || ute.Path != "ref/pipe" {
		t.Fatalf("err = %v, want an unexpected type at ref/pipe", err)
	}
}

func TestTreeHashStaysInsideRoot(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret/SKILL.md": "secret"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"s/SKILL.md": "x", "s/out": "->" + filepath.Join(outside, "secret")})
	id, ls := gitTree(t, dir, "s")
	got, files, err := hashDir(t, dir, "s", TreeHashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got != id || listing(files) != ls {
		t.Errorf("a link out of the folder must be hashed as a link: got %s, git %s", got, id)
	}
	// A skill folder that is itself a link out of the root is not read.
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := hashDir(t, dir, "escape", TreeHashOptions{}); err == nil {
		t.Error("a folder reached through a link out of the root was read")
	}
}
