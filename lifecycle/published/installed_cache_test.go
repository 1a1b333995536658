//go:build !windows

package published

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgit/skillgit/catalog"
)

// putSkill writes the SKILL.md text md into folder dir.
func putSkill(t *testing.T, dir, md string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, catalog.FileName), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cacheMD is a SKILL.md with a name and a description.
func cacheMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\nbody of " + name + "\n"
}

// cacheTree writes two skills folders, a and b, with everything the cache must get right:
// valid, invalid and warned-about skills, duplicates, a category whose skill collides with a
// top-level one, a SKILL.md that is a link, links into and out of the folder, a hidden
// folder, a file, and a skill of b shadowed by one of a.
func cacheTree(t *testing.T) (work, a, b string) {
	work = t.TempDir()
	a, b = filepath.Join(work, "a"), filepath.Join(work, "b")
	putSkill(t, filepath.Join(a, "one"), cacheMD("one", "The first."))
	putSkill(t, filepath.Join(a, "two"), "---\nname: two\ndescription: The second.\nmetadata: {}\n---\n")
	putSkill(t, filepath.Join(a, "meta"), "---\nname: meta\ndescription: Tagged.\nmetadata:\n  team: docs\n---\n")
	putSkill(t, filepath.Join(a, "nodesc"), "---\nname: nodesc\n---\n")
	putSkill(t, filepath.Join(a, "broken"), "---\nname: [broken\n---\n")
	putSkill(t, filepath.Join(a, "renamed"), cacheMD("other-name", "Named unlike its folder."))
	putSkill(t, filepath.Join(a, "dup-1"), cacheMD("dup", "First of two."))
	putSkill(t, filepath.Join(a, "dup-2"), cacheMD("dup", "Second of two."))
	putSkill(t, filepath.Join(a, "cat", "inner"), cacheMD("inner", "In a category."))
	putSkill(t, filepath.Join(a, "cat", "two"), cacheMD("two", "Collides with the top-level two."))
	putSkill(t, filepath.Join(a, ".store", "kept"), cacheMD("kept", "Behind a link inside."))
	putSkill(t, filepath.Join(work, "out"), cacheMD("out", "Behind a link out."))
	putSkill(t, filepath.Join(b, "one"), cacheMD("one", "Hidden by a/one."))
	putSkill(t, filepath.Join(b, "three"), cacheMD("three", "The third."))
	if err := os.WriteFile(filepath.Join(a, "README.md"), []byte("not a skill\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(a, "mdlink"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"kept": ".store/kept", "out": "../out", "dangling": "nowhere",
		"mdlink/SKILL.md": "../one/SKILL.md"} {
		if err := os.Symlink(target, filepath.Join(a, link)); err != nil {
			t.Fatal(err)
		}
	}
	return work, a, b
}

// installedView is what a load of installed skills yields, in a form go-cmp compares.
type installedView struct {
	Folders  []InstalledFolder
	Skills   []skillView
	Shadowed []Shadowed
	Failures []string
	Problems []catalog.Problem
}

type skillView struct {
	Skill                 catalog.Skill
	Scope, Dir, Root, Rel string
}

// loadView loads the installed skills of o with the cache in dir, or none when dir is "".
func loadView(t *testing.T, o InstalledOptions, dir string) installedView {
	t.Helper()
	old := userCacheDir
	defer func() { userCacheDir = old }()
	userCacheDir = func() (string, error) { return dir, nil }
	in, err := LoadInstalled(o)
	if err != nil {
		t.Fatal(err)
	}
	v := installedView{Folders: in.Folders, Shadowed: in.Shadowed, Problems: in.Problems}
	for _, is := range in.Skills {
		v.Skills = append(v.Skills, skillView{*is.Skill, is.Scope, is.Dir, is.root, is.rel})
	}
	for _, f := range in.Failures {
		v.Failures = append(v.Failures, f.Name+": "+f.Err.Error())
	}
	return v
}

// sameAsUncached fails t unless loading o with the cache in dir gives what loading it
// without a cache gives.
func sameAsUncached(t *testing.T, o InstalledOptions, dir string) installedView {
	t.Helper()
	got := loadView(t, o, dir)
	if diff := cmp.Diff(loadView(t, o, ""), got, cmpopts.IgnoreUnexported(catalog.Skill{})); diff != "" {
		t.Fatalf("cached load (-uncached +cached):\n%s", diff)
	}
	return got
}

// cacheFileOf returns the cache file of skills folder dir.
func cacheFileOf(t *testing.T, dir string) string {
	t.Helper()
	c, ok := newInstalledCache(dir)
	if !ok {
		t.Fatal("no cache")
	}
	return c.file
}

// readCache decodes the cache file of skills folder dir.
func readCache(t *testing.T, dir string) cachedFolder {
	t.Helper()
	data, err := os.ReadFile(cacheFileOf(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	var cf cachedFolder
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&cf); err != nil {
		t.Fatal(err)
	}
	return cf
}

// writeCache encodes cf as the cache file of skills folder dir.
func writeCache(t *testing.T, dir string, cf cachedFolder) {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&cf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cacheFileOf(t, dir), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tamper rewrites the cached description of skill folder name in skills folder dir, so that
// a load shows whether it came from the cache.
func tamper(t *testing.T, dir, name, desc string) cachedFolder {
	t.Helper()
	cf := readCache(t, dir)
	for _, cs := range cf.Skills {
		if cs.Dir == name {
			cs.Skill.Description = desc
			writeCache(t, dir, cf)
			return cf
		}
	}
	t.Fatalf("%s is not cached", name)
	return cf
}

// description returns the description of the skill named name in v.
func description(v installedView, name string) string {
	for _, s := range v.Skills {
		if s.Skill.Name == name {
			return s.Skill.Description
		}
	}
	return ""
}

func TestInstalledCacheSameResult(t *testing.T) {
	work, a, b := cacheTree(t)
	UseInstalledCache(t, t.TempDir())
	cache, _ := userCacheDir()
	o := InstalledOptions{Dir: work, SkillsDirs: []string{a, b}}
	sameAsUncached(t, o, cache) // cold: fills the cache
	v := sameAsUncached(t, o, cache)
	if len(v.Skills) == 0 || len(v.Failures) == 0 || len(v.Problems) == 0 || len(v.Shadowed) == 0 {
		t.Fatalf("the tree lacks a case: %+v", v)
	}
	cf := readCache(t, a)
	var dirs []string
	for _, cs := range cf.Skills {
		dirs = append(dirs, cs.Dir)
	}
	want := []string{"broken", "dup-1", "dup-2", "mdlink", "meta", "nodesc", "one", "renamed", "two"}
	if diff := cmp.Diff(want, dirs); diff != "" {
		t.Errorf("cached skill folders (-want +got):\n%s", diff)
	}
	tamper(t, a, "one", "From the cache.")
	if got := description(loadView(t, o, cache), "one"); got != "From the cache." {
		t.Errorf("a warm load read a/one/SKILL.md again: description %q", got)
	}
}

func TestInstalledCacheSeesChanges(t *testing.T) {
	work, a, b := cacheTree(t)
	UseInstalledCache(t, t.TempDir())
	cache, _ := userCacheDir()
	o := InstalledOptions{Dir: work, SkillsDirs: []string{a, b}}
	sameAsUncached(t, o, cache)
	steps := []struct {
		name   string
		change func(t *testing.T)
		check  func(v installedView) bool
	}{
		{"edit keeping the size", func(t *testing.T) {
			file := filepath.Join(a, "one", catalog.FileName)
			putSkill(t, filepath.Dir(file), cacheMD("one", "The FIRST."))
			if err := os.Chtimes(file, time.Time{}, time.Unix(1_000_000_000, 0)); err != nil {
				t.Fatal(err)
			}
		}, func(v installedView) bool { return description(v, "one") == "The FIRST." }},
		{"add", func(t *testing.T) { putSkill(t, filepath.Join(a, "four"), cacheMD("four", "The fourth.")) },
			func(v installedView) bool { return description(v, "four") == "The fourth." }},
		{"remove", func(t *testing.T) {
			if err := os.RemoveAll(filepath.Join(b, "three")); err != nil {
				t.Fatal(err)
			}
		}, func(v installedView) bool { return description(v, "three") == "" }},
		{"rename", func(t *testing.T) {
			if err := os.Rename(filepath.Join(a, "renamed"), filepath.Join(a, "other-name")); err != nil {
				t.Fatal(err)
			}
		}, func(v installedView) bool {
			for _, s := range v.Skills {
				if s.Skill.Name == "other-name" {
					return s.Dir == filepath.Join(a, "other-name")
				}
			}
			return false
		}},
		{"a duplicate appears", func(t *testing.T) { putSkill(t, filepath.Join(a, "one-again"), cacheMD("one", "Again.")) },
			func(v installedView) bool { return description(v, "one") == "The FIRST." }},
	}
	for _, st := range steps {
		st.change(t)
		if v := sameAsUncached(t, o, cache); !st.check(v) {
			t.Errorf("%s: the load does not show the change", st.name)
		}
		sameAsUncached(t, o, cache) // and again from the cache rewritten
	}
}

func TestInstalledCacheMiss(t *testing.T) {
	work, a, _ := cacheTree(t)
	UseInstalledCache(t, t.TempDir())
	cache, _ := userCacheDir()
	o := InstalledOptions{Dir: work, SkillsDirs: []string{a}}
	tests := []struct {
		name   string
		spoil  func(t *testing.T, cf cachedFolder)
		cached bool
	}{
		{"sound", func(t *testing.T, cf cachedFolder) {}, true},
		{"corrupt", func(t *testing.T, cf cachedFolder) {
			if err := os.WriteFile(cacheFileOf(t, a), []byte("not gob at all"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"cut short", func(t *testing.T, cf cachedFolder) {
			if err := os.Truncate(cacheFileOf(t, a), 100); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"oversized", func(t *testing.T, cf cachedFolder) {
			if err := os.Truncate(cacheFileOf(t, a), maxInstalledCache+1); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"another build", func(t *testing.T, cf cachedFolder) { cf.Build = "v0.0.1"; writeCache(t, a, cf) }, false},
		{"another folder", func(t *testing.T, cf cachedFolder) { cf.Folder = "/elsewhere"; writeCache(t, a, cf) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameAsUncached(t, o, cache)
			tt.spoil(t, tamper(t, a, "one", "From the cache."))
			got := description(loadView(t, o, cache), "one")
			if cached := got == "From the cache."; cached != tt.cached {
				t.Errorf("description %q, want it from the cache: %v", got, tt.cached)
			}
			if err := os.Remove(cacheFileOf(t, a)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestInstalledCacheUnwritable(t *testing.T) {
	work, a, b := cacheTree(t)
	UseInstalledCache(t, t.TempDir())
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sameAsUncached(t, InstalledOptions{Dir: work, SkillsDirs: []string{a, b}}, file)
}

func TestInstalledCacheRacy(t *testing.T) {
	work, a, _ := cacheTree(t)
	UseInstalledCache(t, t.TempDir())
	racyWindow = time.Hour
	cache, _ := userCacheDir()
	sameAsUncached(t, InstalledOptions{Dir: work, SkillsDirs: []string{a}}, cache)
	if _, err := os.Stat(cacheFileOf(t, a)); err == nil {
		t.Error("skills changed within the racy window were cached")
	}
}
