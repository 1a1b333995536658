package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

// corruptBlob overwrites the loose object of the file at p on HEAD with garbage and returns
// the object's id and a function that restores it.
func corruptBlob(t *testing.T, dir, p string) (string, func()) {
	t.Helper()
	id := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD:"+p))
	file := filepath.Join(gitDirOf(t, dir), "objects", id[:2], id[2:])
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return id, func() {
		if err := os.WriteFile(file, orig, 0o444); err != nil {
			t.Fatal(err)
		}
	}
}

// catalogEntries lists the catalog cache's files.
func catalogEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for name := range testenv.FileInfos(t, filepath.Join(gitDirOf(t, dir), "skillgit", "cache")) {
		if strings.Contains(filepath.Base(name), "catalog-") {
			out = append(out, name)
		}
	}
	return out
}

// TestPublishedUnreadableObject checks that a SKILL.md git cannot read fails the listing with
// an ErrUnreadableSkill naming the object and `git fsck`, that the failing listing is not
// cached, and that the next listing after the object is restored has the skill.
func TestPublishedUnreadableObject(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine),
		"skills/beta/SKILL.md":  testenv.SkillMD("beta", cleanLine),
	})
	testenv.CommitAll(t, dir, "two skills")
	id, restore := corruptBlob(t, dir, "skills/alpha/SKILL.md")

	_, err := open(t, dir).Published()
	if !errors.Is(err, ErrUnreadableSkill) {
		t.Fatalf("Published with a corrupt blob: %v, want ErrUnreadableSkill", err)
	}
	for _, want := range []string{id, "skills/alpha/SKILL.md", "git fsck"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := open(t, dir).Find("alpha"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Find of the unreadable skill: %v, want an error other than not found", err)
	}
	if got := catalogEntries(t, dir); len(got) != 0 {
		t.Errorf("a listing with an unreadable object was cached: %v", got)
	}

	restore()
	res, err := open(t, dir).Published()
	if err != nil {
		t.Fatalf("Published after the object was restored: %v", err)
	}
	if got := skillNames(res); strings.Join(got, " ") != "alpha beta" {
		t.Errorf("skills after the object was restored = %v, want alpha beta", got)
	}
	if got := catalogEntries(t, dir); len(got) == 0 {
		t.Error("the whole listing was not cached")
	}
}

// TestCatalogCacheUnreadable checks the cache rule directly: a result holding an object that
// could not be read is never stored, and an entry holding one, as older versions wrote, is a
// miss.
func TestCatalogCacheUnreadable(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	testenv.CommitAll(t, dir, "one skill")
	r := open(t, dir)
	tree, err := r.FolderAt(r.Tree, r.Config.SkillsDir)
	if err != nil {
		t.Fatal(err)
	}
	broken := &catalog.Result{Problems: []catalog.Problem{{File: "alpha/SKILL.md",
		Message: "git object 1234 cannot be read", Object: strings.Repeat("1", 40)}}, Folders: []string{"alpha"}}
	cache := r.catalogCache()

	cache.put(tree, broken)
	if _, err := os.Stat(cache.file(tree)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("put stored a result with an unreadable object (stat: %v)", err)
	}

	if err := writeFileAtomic(cache.file(tree), encodeCatalog(broken)); err != nil {
		t.Fatal(err)
	}
	if _, hit := cache.get(tree); hit {
		t.Error("get returned an entry holding an unreadable object")
	}
	res, err := open(t, dir).Published()
	if err != nil {
		t.Fatalf("Published over a stale entry: %v", err)
	}
	if got := skillNames(res); len(got) != 1 || got[0] != "alpha" {
		t.Errorf("skills over a stale entry = %v, want alpha", got)
	}
	if res, hit := cache.get(tree); !hit || len(res.Problems) != 0 {
		t.Errorf("the stale entry was not replaced by a sound one (hit %v)", hit)
	}
}

func skillNames(res *catalog.Result) []string {
	var out []string
	for _, s := range res.Skills {
		out = append(out, s.Name)
	}
	return out
}

// TestTrailCacheUnreadableObject checks that the trail cache keeps only what a commit was
// found to change: a commit whose trees git cannot read is left out and read again once the
// object is restored.
func TestTrailCacheUnreadableObject(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	testenv.CommitAll(t, dir, "alpha")
	testenv.WriteFiles(t, dir, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)})
	testenv.CommitAll(t, dir, "beta")
	_, restore := corruptBlob(t, dir, "skills/beta")
	head := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD"))

	if _, err := open(t, dir).Log(""); err != nil {
		t.Fatal(err)
	}
	parent := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD~1"))
	tc := open(t, dir).trailCache()
	if names, ok := tc.get(plumbingHash(t, head)); ok {
		t.Errorf("the trail cache kept %v for a commit whose tree could not be read", names)
	}
	if names, ok := tc.get(plumbingHash(t, parent)); !ok || strings.Join(names, " ") != "alpha" {
		t.Errorf("the trail cache has %v, %v for the commit before; want alpha", names, ok)
	}
	restore()
	entries, err := open(t, dir).Log("beta")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Commit != head {
		t.Errorf("log of beta after the object was restored: %+v; want the commit %s", entries, head)
	}
}

func plumbingHash(t *testing.T, s string) gitstore.Hash {
	t.Helper()
	h := plumbing.NewHash(s)
	if h.String() != s {
		t.Fatalf("%q is not an object id", s)
	}
	return h
}
