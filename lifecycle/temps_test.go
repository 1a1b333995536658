package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/testenv"
)

// stopAfterTemp makes the process stop, as a signal does, just after the first temporary
// folder of this package is made: every registered file is removed then. It reports the
// folder, and fails the test when the folder outlives that, as one not registered would.
func stopAfterTemp(t *testing.T) *string {
	t.Helper()
	var made string
	tempMade = func(path string) {
		if made != "" {
			return
		}
		made = path
		interrupt.Cleanup()
		if _, err := os.Lstat(path); err == nil {
			t.Errorf("%s outlived interrupt.Cleanup: it was not registered", path)
		}
	}
	t.Cleanup(func() { tempMade = nil })
	return &made
}

// entriesWith lists the entries of dir whose names start with prefix.
func entriesWith(t *testing.T, dir, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestPublishedCopyStoppedLeavesNoTemp(t *testing.T) {
	dir := profileRepo(t, nil)
	r := open(t, dir)
	s := mustFind(t, dir, "beta")
	made := stopAfterTemp(t)
	if _, err := r.PublishedCopies().Dir(s); err == nil {
		t.Fatal("a copy whose temporary folder vanished succeeded")
	}
	if *made == "" {
		t.Fatal("no temporary folder was made")
	}
	if left := entriesWith(t, r.publishedRoot(), ".tmp-"); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
	tempMade = nil
	got, err := r.PublishedCopies().Dir(s)
	if err != nil {
		t.Fatalf("copying again: %v", err)
	}
	if _, err := os.Stat(filepath.Join(got, "SKILL.md")); err != nil {
		t.Fatal(err)
	}
}

func TestMergeCandidateStoppedLeavesNoTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := newRepo(t)
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{
		"older/SKILL.md": testenv.SkillMD("older", cleanLine),
		"newer/SKILL.md": testenv.SkillMD("newer", cleanLine),
	})
	older := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/older", Message: "older"})
	newer := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/newer", Message: "newer"})
	made := stopAfterTemp(t)
	_, _, _ = open(t, dir).MergeCandidate(newer.ID, older.ID, "", lead) // fails or not, depending on what vanished
	if *made == "" || !strings.HasPrefix(*made, tmp) {
		t.Fatalf("temporary folder %q; want one in %s", *made, tmp)
	}
	if left := entriesWith(t, tmp, "skillgit-merge-"); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}
