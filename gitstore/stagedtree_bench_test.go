package gitstore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// bigIndexSkills is the number of skill folders in the big index; every
// tenth has a script too, so the index has 11,000 entries.
const bigIndexSkills = 10_000

// bigIndexRepo makes a repository whose index stages bigIndexSkills skill
// folders with a valid cache-tree, and then one edit, which invalidates
// the cache-tree of the root, skills and the edited skill. It returns the
// repository's folder and the edited index's content.
func bigIndexRepo(tb testing.TB) (string, []byte) {
	tb.Helper()
	dir := tb.TempDir()
	gitRun(tb, dir, "init", "-q", "-b", "main")
	gitIn(tb, dir, bigImportStream(), "fast-import", "--quiet")
	gitRun(tb, dir, "read-tree", "main")
	blob := strings.TrimSpace(gitIn(tb, dir, "edited\n", "hash-object", "-w", "--stdin"))
	gitRun(tb, dir, "update-index", "--cacheinfo", "100644,"+blob+",skills/skill-04242/SKILL.md")
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		tb.Fatal(err)
	}
	return dir, b
}

// bigImportStream is a git fast-import stream of one commit on main.
func bigImportStream() string {
	var s strings.Builder
	s.WriteString("commit refs/heads/main\ncommitter Test <test@example.com> 0 +0000\ndata 4\nbig\n")
	file := func(mode, path, content string) {
		fmt.Fprintf(&s, "M %s inline %s\ndata %d\n%s\n", mode, path, len(content), content)
	}
	for i := range bigIndexSkills {
		name := fmt.Sprintf("skill-%05d", i)
		file("100644", "skills/"+name+"/SKILL.md", fmt.Sprintf("---\nname: %s\ndescription: Skill number %d.\n---\n", name, i))
		if i%10 == 0 {
			file("100755", "skills/"+name+"/scripts/run.sh", "#!/bin/sh\necho "+name+"\n")
		}
	}
	return s.String()
}

func TestIndexTreeBigIndex(t *testing.T) {
	dir, b := bigIndexRepo(t)
	s, err := readStagedIndex(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	_, rootValid := s.valid[""]
	_, skillsValid := s.valid["skills"]
	if len(s.entries) != 11_000 || rootValid || skillsValid || len(s.valid) != 10_999 {
		t.Fatalf("fixture: %d entries, %d valid folders, root valid %v, skills valid %v; want 11,000 entries and every folder but the edited path valid",
			len(s.entries), len(s.valid), rootValid, skillsValid)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := indexTreeString(t, r, "skills")
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, want := gitTrees(t, dir)
	if got != want {
		t.Errorf("IndexTree(skills) = %s, git has %s", got, want)
	}
}

// BenchmarkIndexTree measures IndexTree("skills") on an index of 10,000
// skill folders with one staged edit, with and without its cache-tree,
// beside `git write-tree` on the same
// index as a baseline (it starts a process and rewrites the index, which
// is restored untimed before each run).
func BenchmarkIndexTree(b *testing.B) {
	dir, idx := bigIndexRepo(b)
	indexPath := filepath.Join(dir, ".git", "index")
	b.Run("IndexTree", func(b *testing.B) {
		r, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		for b.Loop() {
			if _, ok, err := r.IndexTree("skills"); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("IndexTree-no-cache-tree", func(b *testing.B) {
		r, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		path := filepath.Join(b.TempDir(), "index")
		if err := os.WriteFile(path, withoutCacheTree(b, idx), 0o644); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, ok, err := r.indexTreeAt(path, "skills"); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("git-write-tree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			if err := os.WriteFile(indexPath, idx, 0o644); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			gitRun(b, dir, "write-tree")
		}
	})
}

// withoutCacheTree re-encodes an index with go-git, which drops the
// cache-tree.
func withoutCacheTree(tb testing.TB, b []byte) []byte {
	tb.Helper()
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(b)).Decode(idx); err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
