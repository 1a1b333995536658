package targetdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
)

// writeSource writes skills named by names into a fresh folder, each with a SKILL.md whose
// body carries version, and returns the folder and the skills to sync.
func writeSource(t testing.TB, dir string, version string, names ...string) []Skill {
	t.Helper()
	var out []Skill
	for _, n := range names {
		d := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Join(d, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("---\nname: %s\ndescription: Test skill.\n---\n%s\n", n, version)
		writeMode(t, filepath.Join(d, catalog.FileName), body, 0o644)
		writeMode(t, filepath.Join(d, "scripts", "run.sh"), "#!/bin/sh\necho "+version+"\n", 0o755)
		out = append(out, Skill{Name: n, Dir: n, Hash: n + "-" + version})
	}
	return out
}

func writeMode(t testing.TB, p, s string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), perm); err != nil {
		t.Fatal(err)
	}
}

// syncOnce plans and applies a sync and returns the actions by skill.
func syncOnce(t testing.TB, src string, skills []Skill, target string, opts Options) map[string]Action {
	t.Helper()
	p, err := Plan(os.DirFS(src), skills, target, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	got := map[string]Action{}
	for _, a := range p.Actions {
		got[a.Skill] = a.Action
	}
	return got
}

func readBody(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSyncInstallKeepUpdateRemove(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	v1 := writeSource(t, src, "v1", "alpha", "beta")
	got := syncOnce(t, src, v1, target, Options{})
	if diff := cmp.Diff(map[string]Action{"alpha": ActionInstall, "beta": ActionInstall}, got); diff != "" {
		t.Fatalf("first sync (-want +got):\n%s", diff)
	}
	if info, err := os.Stat(filepath.Join(target, "alpha", "scripts", "run.sh")); err != nil || info.Mode()&0o111 == 0 {
		t.Fatalf("run.sh is not installed executable: %v", err)
	}
	got = syncOnce(t, src, v1, target, Options{})
	if diff := cmp.Diff(map[string]Action{"alpha": ActionKeep, "beta": ActionKeep}, got); diff != "" {
		t.Fatalf("second sync (-want +got):\n%s", diff)
	}
	src2 := t.TempDir()
	v2 := writeSource(t, src2, "v2", "alpha")
	got = syncOnce(t, src2, v2, target, Options{})
	if diff := cmp.Diff(map[string]Action{"alpha": ActionUpdate, "beta": ActionRemove}, got); diff != "" {
		t.Fatalf("third sync (-want +got):\n%s", diff)
	}
	if body := readBody(t, filepath.Join(target, "alpha", catalog.FileName)); body[len(body)-3:] != "v2\n" {
		t.Fatalf("alpha not updated: %q", body)
	}
	if _, err := os.Lstat(filepath.Join(target, "beta")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("beta not removed: %v", err)
	}
	assertNoLeftovers(t, target)
}

func assertNoLeftovers(t testing.TB, target string) {
	t.Helper()
	entries, err := os.ReadDir(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if isLeftover(e.Name()) {
			t.Errorf("leftover %s in %s", e.Name(), target)
		}
	}
}

func TestSyncLeavesForeignSkillAlone(t *testing.T) {
	src, target := t.TempDir(), t.TempDir()
	skills := writeSource(t, src, "v1", "alpha", "mine")
	if err := os.MkdirAll(filepath.Join(target, "mine"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeMode(t, filepath.Join(target, "mine", catalog.FileName), "my own\n", 0o644)
	got := syncOnce(t, src, skills, target, Options{Force: true})
	if got["mine"] != ActionConflict || got["alpha"] != ActionInstall {
		t.Fatalf("actions %v; want mine conflict, alpha install", got)
	}
	if body := readBody(t, filepath.Join(target, "mine", catalog.FileName)); body != "my own\n" {
		t.Fatalf("a skill skillgit did not install was changed: %q", body)
	}
	// Nor is it removed when the source no longer has a skill of that name.
	got = syncOnce(t, src, skills[:1], target, Options{Force: true})
	if _, ok := got["mine"]; ok {
		t.Fatalf("actions %v mention a skill skillgit does not own", got)
	}
	if readBody(t, filepath.Join(target, "mine", catalog.FileName)) != "my own\n" {
		t.Fatal("foreign skill changed")
	}
}

func TestSyncRefusesLocalEditWithoutForce(t *testing.T) {
	src, target := t.TempDir(), t.TempDir()
	syncOnce(t, src, writeSource(t, src, "v1", "alpha"), target, Options{})
	edited := filepath.Join(target, "alpha", catalog.FileName)
	writeMode(t, edited, "local edit\n", 0o644)
	src2 := t.TempDir()
	v2 := writeSource(t, src2, "v2", "alpha")
	if got := syncOnce(t, src2, v2, target, Options{}); got["alpha"] != ActionConflict {
		t.Fatalf("action %v; want conflict", got["alpha"])
	}
	if readBody(t, edited) != "local edit\n" {
		t.Fatal("local edit overwritten without --force")
	}
	if got := syncOnce(t, src2, v2, target, Options{Force: true}); got["alpha"] != ActionUpdate {
		t.Fatalf("action %v with force; want update", got["alpha"])
	}
	if readBody(t, edited) == "local edit\n" {
		t.Fatal("--force did not overwrite the local edit")
	}
}

func TestSyncDryRunAndFailingWriterChangeNothing(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "alpha")
	if got := syncOnce(t, src, skills, target, Options{Disk: DryRun}); got["alpha"] != ActionInstall {
		t.Fatalf("dry run action %v; want install", got["alpha"])
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("dry run created the target: %v", err)
	}
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	fail := func(*os.Root) Writer { return FailWriter{} }
	p, err := Plan(os.DirFS(src), skills, target, Options{Disk: realDisk{wrap: fail}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Apply(); err == nil {
		t.Fatal("Apply with a failing writer reported success")
	}
	p.Close()
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Fatalf("failing writer left %v", entries)
	}
}

func TestSyncSymlinkMode(t *testing.T) {
	src, target, store := t.TempDir(), t.TempDir(), t.TempDir()
	skills := writeSource(t, src, "v1", "alpha")
	opts := Options{Mode: Symlink, LinkStore: store}
	if got := syncOnce(t, src, skills, target, opts); got["alpha"] != ActionInstall {
		t.Fatalf("action %v; want install", got["alpha"])
	}
	link, err := os.Readlink(filepath.Join(target, "alpha"))
	if err != nil {
		t.Fatalf("alpha is not a link: %v", err)
	}
	if want := filepath.Join(store, "alpha-v1", "alpha"); link != want {
		t.Fatalf("link to %s; want %s", link, want)
	}
	if readBody(t, filepath.Join(target, "alpha", catalog.FileName)) == "" {
		t.Fatal("linked skill is empty")
	}
	// Switching to copies replaces the link with a folder.
	if got := syncOnce(t, src, skills, target, Options{}); got["alpha"] != ActionUpdate {
		t.Fatalf("action %v; want update", got["alpha"])
	}
	if info, err := os.Lstat(filepath.Join(target, "alpha")); err != nil || !info.IsDir() {
		t.Fatalf("alpha is not a folder after switching to copies: %v", err)
	}
}

func TestSyncRejectsBadNames(t *testing.T) {
	src := t.TempDir()
	for _, name := range []string{"../evil", "a/b", "", ".hidden", "UPPER"} {
		_, err := Plan(os.DirFS(src), []Skill{{Name: name, Dir: "x", Hash: "h"}}, t.TempDir(), Options{})
		if !errors.Is(err, catalog.ErrInvalidName) {
			t.Errorf("name %q: error %v; want an invalid name", name, err)
		}
	}
}

func TestSkillPathIsJoin(t *testing.T) {
	for _, dir := range []string{"out", "./out", "out/", "../a/./b//", "/", "/abs/dir/", ".", "", "a/..", "//x"} {
		p := &Folder{Dir: dir}
		for _, name := range []string{"pdf-tools", "a", "x.y", ".hidden", "..", ".", ""} {
			if got, want := p.skillPath(name), filepath.Join(dir, name); got != want {
				t.Errorf("skillPath(%q, %q) = %q, want %q", dir, name, got, want)
			}
		}
	}
}

// TestPlanKeepsItsOwnSkills drops a skill from the caller's slice after planning, as a sync
// does with a skill the audit then refuses, and holds it: every other skill is still written
// with its own content, not that of the skill the slice shifted into its place.
func TestPlanKeepsItsOwnSkills(t *testing.T) {
	src := t.TempDir()
	skills := writeSource(t, src, "v1", "alpha", "beta", "gamma", "delta")
	target := filepath.Join(t.TempDir(), "skills")
	p, err := Plan(os.DirFS(src), skills, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	skills = slices.DeleteFunc(skills, func(s Skill) bool { return s.Name == "beta" })
	p.Hold("beta", "refused")
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpha", "gamma", "delta"} {
		got, err := os.ReadFile(filepath.Join(target, name, catalog.FileName))
		if err != nil || !strings.Contains(string(got), "name: "+name+"\n") {
			t.Errorf("%s holds %q (%v); want its own SKILL.md", name, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(target, "beta")); err == nil {
		t.Error("the held skill was written")
	}
}
