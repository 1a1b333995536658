//go:build !windows

package published_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// writeSkill writes a SKILL.md with name and description into dir.
func writeSkill(t *testing.T, dir, name, desc string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: " + name + "\n"
	if desc != "" {
		md += "description: " + desc + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md+"---\nbody of "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInstalledFolders(t *testing.T) {
	work := t.TempDir()
	proj, home := filepath.Join(work, "proj"), filepath.Join(work, "home")
	sub := filepath.Join(proj, "src", "deep")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		o    published.InstalledOptions
		want []published.InstalledFolder
	}{
		{"project root is the work tree, then home", published.InstalledOptions{Dir: sub, Home: home}, []published.InstalledFolder{
			{Path: filepath.Join(proj, ".agent/skills"), Scope: "project"},
			{Path: filepath.Join(proj, ".agents/skills"), Scope: "project"},
			{Path: filepath.Join(proj, ".claude/skills"), Scope: "project"},
			{Path: filepath.Join(home, ".agent/skills"), Scope: "global"},
			{Path: filepath.Join(home, ".agents/skills"), Scope: "global"},
			{Path: filepath.Join(home, ".claude/skills"), Scope: "global"},
		}},
		{"outside git the folder itself, no home", published.InstalledOptions{Dir: home}, []published.InstalledFolder{
			{Path: filepath.Join(home, ".agent/skills"), Scope: "project"},
			{Path: filepath.Join(home, ".agents/skills"), Scope: "project"},
			{Path: filepath.Join(home, ".claude/skills"), Scope: "project"},
		}},
		{"the home folder as the project is read once", published.InstalledOptions{Dir: home, Home: home}, []published.InstalledFolder{
			{Path: filepath.Join(home, ".agent/skills"), Scope: "project"},
			{Path: filepath.Join(home, ".agents/skills"), Scope: "project"},
			{Path: filepath.Join(home, ".claude/skills"), Scope: "project"},
		}},
		{"only the folders given", published.InstalledOptions{Dir: sub, Home: home, SkillsDirs: []string{"x", home, "x/"}}, []published.InstalledFolder{
			{Path: filepath.Join(sub, "x"), Scope: "project"},
			{Path: home, Scope: "global"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := published.InstalledFolders(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("InstalledFolders (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitSkillsDirs(t *testing.T) {
	sep := string(os.PathListSeparator)
	got := published.SplitSkillsDirs("a" + sep + sep + " " + sep + "b")
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Errorf("SplitSkillsDirs (-want +got):\n%s", diff)
	}
}

func TestLoadInstalled(t *testing.T) {
	work := t.TempDir()
	a, b := filepath.Join(work, "a"), filepath.Join(work, "b")
	writeSkill(t, filepath.Join(a, "one"), "one", "The first.")
	writeSkill(t, filepath.Join(a, "nodesc"), "nodesc", "")
	writeSkill(t, filepath.Join(a, ".store", "kept"), "kept", "Behind a link inside.")
	writeSkill(t, filepath.Join(work, "out"), "out", "Behind a link out.")
	writeSkill(t, filepath.Join(b, "one"), "one", "Hidden by a/one.")
	writeSkill(t, filepath.Join(b, "two"), "two", "The second.")
	// The same files twice, one behind a link: a copy hides nothing.
	writeSkill(t, filepath.Join(b, "kept"), "kept", "Behind a link inside.")
	for link, target := range map[string]string{"kept": ".store/kept", "out": "../out", "dangling": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(a, link)); err != nil {
			t.Fatal(err)
		}
	}
	in, err := published.LoadInstalled(published.InstalledOptions{Dir: work, SkillsDirs: []string{a, b, filepath.Join(work, "missing")}})
	if err != nil {
		t.Fatal(err)
	}
	var names, failed []string
	for _, is := range in.Skills {
		names = append(names, is.Skill.Name+"@"+is.Dir)
	}
	for _, f := range in.Failures {
		failed = append(failed, f.Name)
	}
	want := []string{"kept@" + filepath.Join(a, "kept"), "one@" + filepath.Join(a, "one"), "two@" + filepath.Join(b, "two")}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"dangling", "out", "nodesc"}, failed); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	wantShadow := []published.Shadowed{{Name: "one", Dir: filepath.Join(b, "one"), By: filepath.Join(a, "one")}}
	if diff := cmp.Diff(wantShadow, in.Shadowed); diff != "" {
		t.Errorf("shadowed (-want +got):\n%s", diff)
	}
	kept, err := in.Find("kept")
	if err != nil {
		t.Fatal(err)
	}
	data, err := kept.Content()
	if err != nil || string(data) != "---\nname: kept\ndescription: Behind a link inside.\n---\nbody of kept\n" {
		t.Errorf("Content = %q, %v", data, err)
	}
	res := in.Match("the second", catalog.MatchOptions{})
	if len(res.Matches) == 0 || res.Matches[0].Skill.Name != "two" {
		t.Errorf("Match ranks %v first, want two", res.Matches)
	}
	if _, err := in.Find("out"); err == nil {
		t.Error("Find(out) found the skill behind a link out of its folder")
	}
}
