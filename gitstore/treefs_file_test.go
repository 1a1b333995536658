package gitstore

import (
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBlobFileAfterClose reads files of a packed tree one after another, as the catalog does,
// each closed before the next opens; their sizes share a class of buffers (2 KiB to 2.5 KiB),
// so that each read may take the buffer the last one gave back. After each, it reads the file
// closed before again, which must read its blob again rather than the buffer it gave back.
func TestBlobFileAfterClose(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	want := map[string]string{}
	for i, name := range []string{"a", "b", "c", "d"} {
		body := strings.Repeat(name, 2100+i*100) + "\n"
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
	r, c := openMain(t, dir)
	fsys := r.Objects().TreeFS(c.TreeHash)
	var closed fs.File
	var closedBody string
	for round := range 3 {
		for _, name := range slices.Sorted(maps.Keys(want)) {
			f, err := fsys.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := io.ReadAll(f); err != nil || string(got) != want[name] {
				t.Fatalf("round %d: %s reads %d bytes, %v; want %d", round, name, len(got), err, len(want[name]))
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			// The file closed before this one gave its buffer back, which this one may hold.
			if closed != nil {
				if _, err := closed.(io.Seeker).Seek(0, io.SeekStart); err != nil {
					t.Fatal(err)
				}
				if again, err := io.ReadAll(closed); err != nil || string(again) != closedBody {
					t.Fatalf("round %d: a file read again after Close gives %d bytes, %v; want %d", round, len(again), err, len(closedBody))
				}
				closed.Close()
			}
			closed, closedBody = f, want[name]
		}
	}
}
