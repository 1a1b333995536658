package agentsync

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
)

// TestSyncSteps checks what a sync tells Step: the skills it installs, updates or removes in
// all its targets, counted from none to all; the skills it keeps do not count.
func TestSyncSteps(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	files := map[string]string{}
	for i := range 3 {
		name := fmt.Sprintf("tidy%d", i)
		files["skills/"+name+"/SKILL.md"] = testenv.SkillMD(name, "Run gofmt -l . before every commit.")
	}
	testenv.WriteFiles(t, dir, files)
	testenv.CommitAll(t, dir, "three skills")
	out := t.TempDir()
	targets := []string{filepath.Join(out, "a"), filepath.Join(out, "b")}
	sync := func() string {
		t.Helper()
		var steps []string
		_, err := Run(Request{Dir: dir, Dirs: targets, Getenv: os.Getenv, Step: func(done, total int) {
			steps = append(steps, fmt.Sprintf("%d/%d", done, total))
		}})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(steps)
	}
	if got, want := sync(), "[0/6 1/6 2/6 3/6 4/6 5/6 6/6]"; got != want {
		t.Errorf("steps of the first sync: %s, want %s", got, want)
	}
	testenv.Git(t, dir, "rm", "-q", "-r", "skills/tidy1")
	testenv.CommitAll(t, dir, "one skill less")
	if got, want := sync(), "[0/2 1/2 2/2]"; got != want {
		t.Errorf("steps of a sync that removes a skill: %s, want %s", got, want)
	}
}
