package audit

import (
	"io/fs"
	"os"
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testSkills returns the folders of the test skills, each holding a SKILL.md.
func testSkills(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := fs.WalkDir(os.DirFS("testdata"), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Base(p) == "SKILL.md" {
			dirs = append(dirs, "testdata/"+path.Dir(p))
		}
		return err
	})
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no test skills: %v", err)
	}
	return dirs
}

// TestKeptSums shows that the file hashes scanEntry keeps from what it read are what fileSum
// reads again, and that keeping them leaves every report of the test skills as it was.
func TestKeptSums(t *testing.T) {
	kept := 0
	for _, dir := range testSkills(t) {
		fsys := os.DirFS(dir)
		s := &scanner{eng: compiled(), cand: takeCandidates()}
		ts, err := s.analyze(fsys)
		if err != nil {
			t.Fatal(err)
		}
		for name, sum := range ts.sums {
			kept++
			if want := fileSum(fsys, name); sum != want {
				t.Errorf("%s/%s: kept %s, fileSum %s", dir, name, sum, want)
			}
		}
		with, err := Scan(fsys, Options{Skill: "x"})
		if err != nil {
			t.Fatal(err)
		}
		keepSums = false
		without, err := Scan(fsys, Options{Skill: "x"})
		keepSums = true
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(without, with); diff != "" {
			t.Errorf("%s: report with kept sums (-without +with):\n%s", dir, diff)
		}
	}
	if kept == 0 {
		t.Fatal("no test skill has a file whose hash was kept")
	}
}
