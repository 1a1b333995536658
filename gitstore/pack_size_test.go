package gitstore

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// skillHistory writes commits commits on top of a tree of skills skill
// folders, each commit rewriting one skill, as a run of skillgit
// proposals does.
func skillHistory(t testing.TB, r *Repo, skills, commits int) Hash {
	t.Helper()
	entries := make([]TreeEntry, 0, skills)
	for i := range skills {
		blob := mustBlob(t, r, fmt.Sprintf("---\nname: skill-%05d\ndescription: skill %d\n---\n%s\n", i, i, strings.Repeat("body ", 50)))
		entries = append(entries, dir(fmt.Sprintf("skill-%05d", i), mustTree(t, r, file("SKILL.md", blob))))
	}
	root := mustTree(t, r, dir("skills", mustTree(t, r, entries...)))
	tip := mustCommit(t, r, root, "start")
	for i := range commits {
		root = putFile(t, r, root, fmt.Sprintf("skills/skill-%05d/SKILL.md", (i*7)%skills), fmt.Sprintf("version %d\n", i))
		tip = mustCommit(t, r, root, fmt.Sprintf("change %d", i), tip)
	}
	return tip
}

// objectBytes returns the bytes taken by loose objects and by packs.
func objectBytes(t testing.TB, objDir string) (loose, packed int64) {
	t.Helper()
	err := filepath.WalkDir(objDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if filepath.Base(filepath.Dir(p)) == "pack" {
			packed += fi.Size()
		} else {
			loose += fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return loose, packed
}

// TestPackLooseShrinksHistory checks that the pack stores the trees that
// every commit rewrites as deltas: it must be at least four times smaller
// than the loose objects.
func TestPackLooseShrinksHistory(t *testing.T) {
	r := diskRepo(true)(t)
	tip := skillHistory(t, r, 300, 60)
	if err := r.Updates().Update("refs/heads/main", tip, ZeroHash, "history"); err != nil {
		t.Fatal(err)
	}
	loose, _ := objectBytes(t, r.Objects().objectsDir())
	if _, err := r.Packs().PackLoose(); err != nil {
		t.Fatal(err)
	}
	_, packed := objectBytes(t, r.Objects().objectsDir())
	t.Logf("loose %d KiB, packed %d KiB", loose>>10, packed>>10)
	if packed*4 > loose {
		t.Errorf("pack takes %d bytes, more than a quarter of the %d loose bytes", packed, loose)
	}
	gitRun(t, r.GitDir(), "fsck", "--strict")
}
