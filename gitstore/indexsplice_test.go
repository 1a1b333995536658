package gitstore

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// spliceFiles has neighbours that sort between a folder's path and the paths below it
// ("skills/a-b", "skills/a.md" between "skills/a" and "skills/a/"), where a splice that
// took the wrong run of entries would show.
var spliceFiles = map[string]string{
	"skills/a-b/SKILL.md": "a-b\n",
	"skills/a.md":         "a file\n",
	"skills/a/SKILL.md":   "a v1\n",
	"skills/a/x/deep.md":  "deep\n",
	"skills/a0/SKILL.md":  "a0\n",
	"skills/b/SKILL.md":   "b\n",
	"top.md":              "top\n",
}

// TestIndexSpliceAcceptedByGit checks that an update that changes a few paths of an index
// git wrote, entries copied as they are around the ones it changed, leaves an index that
// git reads as the new commit's: status clean, nothing staged, write-tree the commit's
// tree, nothing to refresh, fsck content; and that entries outside the prefixes keep what
// git alone stores (here the assume-unchanged bit). Index version 4, which is decoded and
// encoded whole, must give the same, the bit aside.
func TestIndexSpliceAcceptedByGit(t *testing.T) {
	for _, version := range []string{"2", "4"} {
		t.Run("version "+version, func(t *testing.T) {
			dir := t.TempDir()
			gitRun(t, dir, "init", "-q", "-b", "main")
			writeFiles(t, dir, spliceFiles)
			gitRun(t, dir, "add", ".")
			gitRun(t, dir, "commit", "-q", "-m", "first")
			gitRun(t, dir, "update-index", "--index-version", version)
			gitRun(t, dir, "update-index", "--assume-unchanged", "skills/a-b/SKILL.md")
			f := worktreeFixtureAt(t, dir)
			r := f.r
			f.new = f.edit(t, f.old, map[string]*TreeEntry{
				"skills/a/SKILL.md":  {Mode: filemode.Regular, Hash: mustBlob(t, r, "a v2\n")},
				"skills/a/x/deep.md": nil,
				"skills/a/new.md":    {Mode: filemode.Regular, Hash: mustBlob(t, r, "new\n")},
				"skills/a.md":        {Mode: filemode.Regular, Hash: mustBlob(t, r, "a file v2\n")},
				"skills/zz/SKILL.md": {Mode: filemode.Regular, Hash: mustBlob(t, r, "zz\n")},
			})
			prefixes := []string{"skills/a", "skills/a.md", "skills/zz", "skills/a"}
			if err := r.UpdateWorktree(f.old, f.new, prefixes); err != nil {
				t.Fatal(err)
			}
			f.commitNew(t)
			checkIndexMatchesHead(t, dir, f.new)
			// go-git's codec, which version 4 goes through, has no place for the bit.
			if got := gitRun(t, dir, "ls-files", "-v", "skills/a-b"); version != "4" && got != "h skills/a-b/SKILL.md\n" {
				t.Errorf("git ls-files -v skills/a-b = %q; want the assume-unchanged bit kept", got)
			}
		})
	}
}

// checkIndexMatchesHead checks with git that the index and the checkout in dir are the
// commit HEAD names, whose tree is tree.
func checkIndexMatchesHead(t *testing.T, dir string, tree Hash) {
	t.Helper()
	if st := gitRun(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status --porcelain:\n%s", st)
	}
	gitRun(t, dir, "diff", "--cached", "--quiet")
	if got := strings.TrimSpace(gitRun(t, dir, "write-tree")); got != tree.String() {
		t.Errorf("git write-tree = %s; want %s", got, tree)
	}
	if got := gitRun(t, dir, "update-index", "--refresh"); got != "" {
		t.Errorf("git update-index --refresh: %s", got)
	}
	gitRun(t, dir, "fsck", "--strict", "--no-dangling")
}
