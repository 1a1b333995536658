package catalog

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNoSkillsError(t *testing.T) {
	err := NoSkillsError("notes")
	if !errors.Is(err, ErrNoSkills) {
		t.Errorf("NoSkillsError does not wrap ErrNoSkills: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "notes: no skills found: no SKILL.md under notes (") {
		t.Errorf("message = %q", err)
	}
}

// TestDiscoverNamedDotFolder searches a dot-folder given as the root and skips one below it.
func TestDiscoverNamedDotFolder(t *testing.T) {
	skill := func(name string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: A skill. Use when testing.\n---\nBody.\n")}
	}
	fsys := fstest.MapFS{
		".curated/hello/SKILL.md":         skill("hello"),
		".curated/.drafts/later/SKILL.md": skill("later"),
	}
	res, err := Discover(fsys, ".curated", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Folders, " "); got != ".curated/hello" {
		t.Errorf("folders = %q, want .curated/hello", got)
	}
}
