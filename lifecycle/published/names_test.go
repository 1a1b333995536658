package published

import (
	"fmt"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

// TestSkillFolder checks the one lookup of the folder that holds a skill name.
func TestSkillFolder(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"skills/ops/deploy/SKILL.md": testenv.SkillMD("deploy", cleanLine),
		"skills/lint/SKILL.md":       testenv.SkillMD("lint", cleanLine),
	})
	r := channel(t, dir)
	for name, want := range map[string]string{"deploy": "skills/ops/deploy", "lint": "skills/lint", "dep": "", "zzz": ""} {
		got, err := SkillFolder(r.git, r.v.Tree, r.v.Config.SkillsDir, name, "main")
		if err != nil || got != want {
			t.Errorf("SkillFolder(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}

// TestSkillFolderQuickMatchesListing caches the listing of one version, then changes the
// skills in the ways a publish can (a new skill, one removed, a name changed in place, a
// skill in a new category, a second folder taking a name in use, a folder that is not a
// skill) and checks, after each change, that the lookup from the cached listing and the
// changed folders answers as the full listing does, or steps aside.
func TestSkillFolderQuickMatchesListing(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"skills/ops/deploy/SKILL.md": testenv.SkillMD("deploy", cleanLine),
		"skills/lint/SKILL.md":       testenv.SkillMD("lint", cleanLine),
		"skills/lint-fast/SKILL.md":  testenv.SkillMD("lint-fast", cleanLine),
	})
	names := []string{"deploy", "lint", "lint-fast", "fresh", "renamed", "nested", "zzz", "lin"}
	lookups := func(step string, wantQuick bool) {
		t.Helper()
		r := channel(t, dir)
		// Every quick lookup runs before the listing, which may cache itself as the latest.
		quick := map[string]string{}
		for _, name := range names {
			if dir, ok := skillFolderQuick(r.git, r.v.Tree, r.v.Config.SkillsDir, name); ok {
				quick[name] = dir
			}
		}
		if answered := len(quick) == len(names); answered != wantQuick || !wantQuick && len(quick) > 0 {
			t.Errorf("%s: the quick lookup answered %v of %d names; want all: %v", step, quick, len(names), wantQuick)
		}
		res, err := CatalogAt(r.git, r.v.Tree, r.v.Config.SkillsDir, "main")
		if err != nil {
			t.Fatal(err)
		}
		for name, got := range quick {
			want := ""
			if s := skillNamed(res, name); s != nil {
				want = s.Dir
			}
			if got != want {
				t.Errorf("%s: quick lookup of %q = %q, the listing says %q", step, name, got, want)
			}
		}
	}
	lookups("with no listing cached", false)
	// The cached listing is now the first one; later listings change fewer than
	// rewriteAfter skills, so they all start from it.
	lookups("as cached", true)
	steps := []struct {
		name  string
		files map[string]string
		gone  []string
		quick bool
	}{
		{"a new skill", map[string]string{"skills/fresh/SKILL.md": testenv.SkillMD("fresh", cleanLine)}, nil, true},
		{"a skill removed", nil, []string{"skills/lint-fast"}, true},
		{"a name changed in place", map[string]string{"skills/lint/SKILL.md": testenv.SkillMD("renamed", cleanLine)}, nil, true},
		{"a skill in a new category", map[string]string{"skills/tools/nested/SKILL.md": testenv.SkillMD("nested", cleanLine)}, nil, true},
		{"a second folder of a name in use", map[string]string{"skills/other/deploy/SKILL.md": testenv.SkillMD("deploy", cleanLine)}, nil, false},
	}
	for _, st := range steps {
		testenv.WriteFiles(t, dir, st.files)
		for _, g := range st.gone {
			testenv.Git(t, dir, "rm", "-rq", g)
		}
		testenv.CommitAll(t, dir, st.name)
		lookups(st.name, st.quick)
	}
}

// TestSkillFolderCarriesTheListing publishes, as a batch does, more new skills than the quick
// lookup reads changed folders (maxQuick) and than it carries over before caching
// (storeAfter), one version after the other, and checks that every version is still answered
// from the listing carried forward, that the answers are right, that a name taken twice is
// left to the full listing, and that the listing cached on the way is the full listing of its
// version.
func TestSkillFolderCarriesTheListing(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"skills/ops/deploy/SKILL.md": testenv.SkillMD("deploy", cleanLine),
		"skills/lint/SKILL.md":       testenv.SkillMD("lint", cleanLine),
	})
	r := channel(t, dir)
	resetDecodedListing(t)
	if _, err := CatalogAt(r.git, r.v.Tree, "skills", "main"); err != nil {
		t.Fatal(err)
	}
	cache := catalogCacheOf(r.git.CommonDir())
	first, _ := cache.latest()
	tree := r.v.Tree
	for i := range storeAfter + maxQuick + 10 {
		name := fmt.Sprintf("batch-%03d", i)
		blob, err := r.git.Writes().WriteBlob([]byte(testenv.SkillMD(name, cleanLine)))
		if err != nil {
			t.Fatal(err)
		}
		tree, err = r.git.Writes().ReplacePath(tree, "skills/"+name+"/SKILL.md", &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
		if err != nil {
			t.Fatal(err)
		}
		for look, want := range map[string]string{name: "skills/" + name, "deploy": "skills/ops/deploy", "batch-999": ""} {
			got, ok := skillFolderQuick(r.git, tree, "skills", look)
			if !ok || got != want {
				t.Fatalf("after %d publishes: skillFolderQuick(%s) = %q, %v; want %q from the listing carried forward", i+1, look, got, ok, want)
			}
		}
	}
	// A folder that takes the name of a skill published early in the batch, long carried
	// over: the quick lookup must not answer with either folder alone.
	blob, err := r.git.Writes().WriteBlob([]byte(testenv.SkillMD("batch-005", cleanLine)))
	if err != nil {
		t.Fatal(err)
	}
	clash, err := r.git.Writes().ReplacePath(tree, "skills/again/SKILL.md", &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := skillFolderQuick(r.git, clash, "skills", "batch-005"); ok {
		t.Errorf("skillFolderQuick(batch-005) with two folders of that name = %q; want it to step aside", got)
	}
	latest, ok := cache.latest()
	if !ok || latest == first {
		t.Fatalf("after %d publishes the cached listing is still the first one", storeAfter+maxQuick+10)
	}
	cached, ok := cache.get(latest)
	if !ok {
		t.Fatalf("the listing of %s is not cached", latest)
	}
	full, err := catalog.Discover(r.git.Objects().TreeFS(latest), ".", listingOptions)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(cached.Skills), names(full.Skills); !slices.Equal(got, want) {
		t.Errorf("the listing cached on the way names %d skills, the full listing %d:\n%v\n%v", len(got), len(want), got, want)
	}
}

// resetDecodedListing forgets the listing this process holds, now and when the test ends.
func resetDecodedListing(t *testing.T) {
	reset := func() {
		decodedListing.Lock()
		decodedListing.tree, decodedListing.res, decodedListing.scans, decodedListing.carried = gitstore.ZeroHash, nil, 0, 0
		decodedListing.Unlock()
	}
	reset()
	t.Cleanup(reset)
}
