package targetdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
)

// A held skill is neither written nor removed and keeps its manifest entry; one that was
// never installed stays absent from the folder and the manifest.
func TestSyncHoldKeepsManifestExact(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	v1 := writeSource(t, src, "v1", "kept", "held")
	syncOnce(t, src, v1, target, Options{})
	src2 := t.TempDir()
	v2 := writeSource(t, src2, "v2", "kept", "held", "fresh")
	hold := map[string]string{"held": "blocked", "fresh": "unreadable"}
	var rest []Skill
	for _, s := range v2 {
		if _, ok := hold[s.Name]; !ok {
			rest = append(rest, s)
		}
	}
	got := syncOnce(t, src2, rest, target, Options{Hold: hold})
	want := map[string]Action{"kept": ActionUpdate, "held": ActionSkip, "fresh": ActionSkip}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("actions (-want +got):\n%s", diff)
	}
	if b := readBody(t, filepath.Join(target, "held", catalog.FileName)); !strings.Contains(b, "v1") {
		t.Errorf("held skill was rewritten: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(target, "fresh")); !os.IsNotExist(err) {
		t.Errorf("fresh skill was installed: %v", err)
	}
	found, err := Inspect(target)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, s := range found {
		states[s.Name] = string(s.State) + " " + s.Source
	}
	wantStates := map[string]string{"kept": "installed kept-v2", "held": "installed held-v1"}
	if diff := cmp.Diff(wantStates, states); diff != "" {
		t.Fatalf("states (-want +got):\n%s", diff)
	}
}

// Inspect tells installed, edited, missing and foreign skills apart, and an edited
// skill whose source did not change is planned as edited, not kept.
func TestInspectTargetStates(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "same", "changed", "gone")
	syncOnce(t, src, skills, target, Options{})
	writeMode(t, filepath.Join(target, "changed", catalog.FileName), "edited\n", 0o644)
	if err := os.RemoveAll(filepath.Join(target, "gone")); err != nil {
		t.Fatal(err)
	}
	writeSource(t, target, "x", "mine")
	found, err := Inspect(target)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]State{}
	for _, s := range found {
		got[s.Name] = s.State
	}
	want := map[string]State{"same": StateInstalled, "changed": StateEdited, "gone": StateMissing, "mine": StateForeign}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("states (-want +got):\n%s", diff)
	}
	acts := syncOnce(t, src, skills, target, Options{})
	if acts["changed"] != ActionEdited || acts["same"] != ActionKeep {
		t.Errorf("actions = %v; want changed edited, same keep", acts)
	}
	if b := readBody(t, filepath.Join(target, "changed", catalog.FileName)); b != "edited\n" {
		t.Errorf("edited skill was overwritten: %q", b)
	}
}
