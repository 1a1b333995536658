package gitstore

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlobFileAfterClose reads files of a packed tree one after another, as the catalog does,
// each closed before the next opens, so that each read may take the buffer the last one gave
// back; then reads a closed file again, which reads its blob again.
func TestBlobFileAfterClose(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	want := map[string]string{}
	for i, name := range []string{"a", "b", "c", "d"} {
		body := strings.Repeat(name, 600+i*300) + "\n"
		want["skills/"+name+"/SKILL.md"] = body
		if err := os.MkdirAll(filepath.Join(dir, "skills", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "skills", name, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "add")
	gitRun(t, dir, "gc", "-q")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head, err := r.Refs().ResolveRevision("main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().Commit(head)
	if err != nil {
		t.Fatal(err)
	}
	fsys := r.Objects().TreeFS(c.TreeHash)
	for round := range 3 {
		for name, body := range want {
			f, err := fsys.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(f)
			if err != nil || string(got) != body {
				t.Fatalf("round %d: %s reads %d bytes, %v; want %d", round, name, len(got), err, len(body))
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := f.(io.Seeker).Seek(0, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			again, err := io.ReadAll(f)
			if err != nil || string(again) != body {
				t.Fatalf("round %d: %s read after Close gives %d bytes, %v; want %d", round, name, len(again), err, len(body))
			}
			f.Close()
		}
	}
}
