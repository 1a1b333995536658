package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

// buildHistory writes two commits on main with skill folders, an
// executable script, a symbolic link and trailers, plus an archive ref.
func buildHistory(t *testing.T, r *Repo) (c1, c2 Hash) {
	t.Helper()
	put := func(root Hash, p string, mode filemode.FileMode, content string) Hash {
		h, err := r.Writes().ReplacePath(root, p, &TreeEntry{Mode: mode, Hash: mustBlob(t, r, content)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	root := put(ZeroHash, ".skillgit.yaml", filemode.Regular, "publish_branch: main\n")
	root = put(root, "skills/pdf-tools/SKILL.md", filemode.Regular, "---\nname: pdf-tools\n---\n")
	root = put(root, "skills/pdf-tools/scripts/run.sh", filemode.Executable, "#!/bin/sh\n")
	root = put(root, "skills/pdf-tools/guide.md", filemode.Symlink, "SKILL.md")
	msg := FormatMessage("propose: pdf-tools", "First version.", []Trailer{
		{"Skillgit-Action", "propose"}, {"Skillgit-Skill", "pdf-tools"}})
	c1 = mustCommit(t, r, root, msg)
	root = put(root, "skills/review/code-quality/SKILL.md", filemode.Regular, "---\nname: code-quality\n---\n")
	c2 = mustCommit(t, r, root, FormatMessage("publish: code-quality", "", []Trailer{{"Approved-By", "Ada Lovelace <ada@example.com>"}}), c1)
	for _, u := range []struct {
		ref  string
		newH Hash
		oldH Hash
	}{{"refs/heads/main", c1, ZeroHash}, {"refs/heads/main", c2, c1}, {"refs/skillgit/archive/x-1", c1, ZeroHash}} {
		if err := r.Updates().Update(u.ref, u.newH, u.oldH, "skillgit: test"); err != nil {
			t.Fatal(err)
		}
	}
	return c1, c2
}

func TestInteropGitReadsWhatWeWrite(t *testing.T) {
	for _, bare := range []bool{false, true} {
		t.Run(map[bool]string{false: "worktree", true: "bare"}[bare], func(t *testing.T) {
			r := diskRepo(bare)(t)
			c1, c2 := buildHistory(t, r)
			dir := r.GitDir()
			gitRun(t, dir, "fsck", "--strict", "--no-dangling")
			if got := strings.TrimSpace(gitRun(t, dir, "rev-parse", "refs/heads/main")); got != c2.String() {
				t.Errorf("git rev-parse main = %s, want %s", got, c2)
			}
			log := gitRun(t, dir, "log", "--format=%H %s", "main")
			want := c2.String() + " publish: code-quality\n" + c1.String() + " propose: pdf-tools\n"
			if diff := cmp.Diff(want, log); diff != "" {
				t.Errorf("git log (-want +got):\n%s", diff)
			}
			trailers := gitRun(t, dir, "log", "-1", "--format=%(trailers:key=Skillgit-Skill,valueonly)", c1.String())
			if strings.TrimSpace(trailers) != "pdf-tools" {
				t.Errorf("git log trailer = %q, want pdf-tools", trailers)
			}
			listing := gitRun(t, dir, "ls-tree", "-r", "main")
			for _, line := range []string{"100755 blob", "120000 blob", "skills/review/code-quality/SKILL.md"} {
				if !strings.Contains(listing, line) {
					t.Errorf("git ls-tree lacks %q:\n%s", line, listing)
				}
			}
		})
	}
}

func TestInteropTreeIDsMatchGit(t *testing.T) {
	r := diskRepo(true)(t)
	_, c2 := buildHistory(t, r)
	c, err := r.Objects().Commit(c2)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", "skills", "skills/pdf-tools"} {
		e, _, err := r.Objects().EntryAt(c.TreeHash, p)
		if err != nil {
			t.Fatal(err)
		}
		listing := gitRun(t, r.GitDir(), "ls-tree", e.Hash.String())
		if got := strings.TrimSpace(gitIn(t, r.GitDir(), listing, "mktree")); got != e.Hash.String() {
			t.Errorf("%q: git mktree = %s, want %s", p, got, e.Hash)
		}
	}
}

func TestInteropReflog(t *testing.T) {
	r := diskRepo(false)(t)
	buildHistory(t, r)
	got := gitRun(t, r.WorktreeDir(), "reflog", "show", "--format=%gs", "refs/heads/main")
	if got != "skillgit: test\nskillgit: test\n" {
		t.Errorf("git reflog main = %q", got)
	}
	head := gitRun(t, r.WorktreeDir(), "reflog", "show", "--format=%gs", "HEAD")
	if strings.Count(head, "skillgit: test") != 2 {
		t.Errorf("git reflog HEAD = %q, want the updates of the branch HEAD points at", head)
	}
	if _, err := os.Stat(filepath.Join(r.GitDir(), "logs", "refs", "skillgit")); err == nil {
		t.Error("a reflog was written for refs/skillgit/, which git does not log by default")
	}
}

// openMain opens the repository at dir, closed when the test ends, and reads the commit main
// points at.
func openMain(t *testing.T, dir string) (*Repo, *object.Commit) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	head, err := r.Refs().ResolveRevision("main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().Commit(head)
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

func TestInteropWeReadWhatGitWrites(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	if err := os.MkdirAll(filepath.Join(dir, "skills", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skills", "a", "SKILL.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "add a", "-m", "Body text.", "--trailer", "Approved-By: Ada <ada@example.com>", "--trailer", "Skillgit-Risk: low")
	r, c := openMain(t, dir)
	want := []Trailer{{"Approved-By", "Ada <ada@example.com>"}, {"Skillgit-Risk", "low"}}
	if diff := cmp.Diff(want, ParseTrailers(c.Message)); diff != "" {
		t.Errorf("trailers of a git commit (-want +got):\n%s", diff)
	}
	b, err := r.Objects().TreeFS(c.TreeHash).(interface{ ReadFile(string) ([]byte, error) }).ReadFile("skills/a/SKILL.md")
	if err != nil || string(b) != "hello\n" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
}

func TestInteropPackedRefs(t *testing.T) {
	r := diskRepo(false)(t)
	c1, c2 := buildHistory(t, r)
	dir := r.WorktreeDir()
	gitRun(t, dir, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(r.GitDir(), "refs", "heads", "main")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("main is still loose after git pack-refs: %v", err)
	}
	if got, err := r.Refs().Get("refs/heads/main"); err != nil || got != c2 {
		t.Errorf("packed Ref(main) = %s, %v; want %s", got, err, c2)
	}
	if err := r.Updates().Update("refs/heads/main", c1, c1, "stale"); !errors.Is(err, ErrRefChanged) {
		t.Errorf("stale CAS on a packed ref = %v, want ErrRefChanged", err)
	}
	if _, err := os.Stat(filepath.Join(r.GitDir(), "refs", "heads", "main")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a rejected CAS left a loose ref file behind: %v", err)
	}
	if err := r.Updates().Update("refs/heads/main", c1, c2, "rewind"); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(gitRun(t, dir, "rev-parse", "main")); got != c1.String() {
		t.Errorf("git rev-parse main after CAS = %s, want %s", got, c1)
	}
	refs, err := r.Refs().List("refs/")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Ref{{"refs/heads/main", c1}, {"refs/skillgit/archive/x-1", c1}}, refs); diff != "" {
		t.Errorf("Refs with loose and packed (-want +got):\n%s", diff)
	}
	if err := r.Updates().Update("refs/skillgit/archive/x-1", ZeroHash, c1, "drop"); err != nil {
		t.Fatal(err)
	}
	packed, err := os.ReadFile(filepath.Join(r.GitDir(), "packed-refs"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(packed), "archive/x-1") {
		t.Errorf("packed-refs still names the deleted ref:\n%s", packed)
	}
	if _, err := gitErr(dir, "", "rev-parse", "--verify", "-q", "refs/skillgit/archive/x-1"); err == nil {
		t.Error("git still resolves the deleted ref")
	}
	gitRun(t, dir, "fsck", "--strict", "--no-dangling")
}

// TestInteropWriteDirMatchesGitAdd checks that WriteDir stores, and HashDir
// computes without storing, the tree git add gives the same folder.
func TestInteropWriteDirMatchesGitAdd(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, map[string]string{
		"skill/SKILL.md": "---\nname: skill\n---\n", "skill/scripts/run.sh": "#!/bin/sh\n",
		"skill/refs/a-b.md": "a", "skill/refs/a/x.md": "b", "skill/refs/a.md": "c",
	})
	if err := os.Symlink("SKILL.md", filepath.Join(dir, "skill", "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "skill", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "skill", "scripts", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "skill")
	want := strings.TrimSpace(gitRun(t, dir, "write-tree", "--prefix=skill/"))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got, err := r.Writes().WriteDir(root.FS(), "skill")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("WriteDir = %s, git write-tree = %s", got, want)
	}
	hashed, err := HashDir(root.FS(), "skill")
	if err != nil || hashed.String() != want {
		t.Errorf("HashDir = %s, %v; git write-tree = %s", hashed, err, want)
	}
}
