package published

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/testenv"
)

// catalogEntries lists the catalog cache's files.
func catalogEntries(t *testing.T, dir string) []string {
	t.Helper()
	gitDir := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "--absolute-git-dir"))
	entries, err := filepath.Glob(filepath.Join(gitDir, "skillgit", "cache", "catalog-*"))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestPublishedUnreadableObject checks that a SKILL.md git cannot read fails the listing with
// an ErrUnreadableSkill naming the object and `git fsck`, that the failing listing is not
// cached, and that the next listing after the object is restored has the skill.
func TestPublishedUnreadableObject(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine),
		"skills/beta/SKILL.md":  testenv.SkillMD("beta", cleanLine),
	})
	id, restore := testenv.CorruptObject(t, dir, "HEAD:skills/alpha/SKILL.md")

	_, err := channel(t, dir).List()
	if !errors.Is(err, ErrUnreadableSkill) {
		t.Fatalf("Published with a corrupt blob: %v, want ErrUnreadableSkill", err)
	}
	for _, want := range []string{id, "skills/alpha/SKILL.md", "git fsck"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := channel(t, dir).Find("alpha"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Find of the unreadable skill: %v, want an error other than not found", err)
	}
	if got := catalogEntries(t, dir); len(got) != 0 {
		t.Errorf("a listing with an unreadable object was cached: %v", got)
	}

	restore()
	res, err := channel(t, dir).List()
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
	dir := newRepo(t, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	r := channel(t, dir)
	tree := skillsTree(t, r)
	broken := &catalog.Result{Problems: []catalog.Problem{{File: "alpha/SKILL.md",
		Message: "git object 1234 cannot be read", Object: strings.Repeat("1", 40)}}, Folders: []string{"alpha"}}
	cache := catalogCacheOf(r.git.CommonDir())

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
	res, err := channel(t, dir).List()
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
