package packs

import (
	"fmt"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestUpdateSteps checks what an update tells Step: each pack's changes counted from none to
// all, one pack after the other, the changes that open candidates propose already included.
func TestUpdateSteps(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	dir := lifecycletest.NewRepo(t)
	for _, p := range []struct {
		name   string
		skills int
	}{{"first", 3}, {"second", 2}} {
		files := map[string]string{}
		for i := range p.skills {
			name := fmt.Sprintf("%s%d", p.name, i)
			files["skills/"+name+"/SKILL.md"] = testenv.SkillMD(name, cleanLine)
		}
		src := packSource(t, base, p.name, files)
		if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: p.name, URL: "file://" + src}, lifecycletest.Lead); err != nil {
			t.Fatal(err)
		}
	}
	var steps []string
	o := UpdateOptions{ActOptions: lifecycletest.Agent, Step: func(done, total int) { steps = append(steps, fmt.Sprintf("%d/%d", done, total)) }}
	if _, err := updateT(lifecycletest.Open(t, dir), "", o); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(steps), "[0/3 1/3 2/3 3/3 0/2 1/2 2/2]"; got != want {
		t.Errorf("steps %s, want %s", got, want)
	}
	steps = nil
	if _, err := updateT(lifecycletest.Open(t, dir), "", o); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(steps), "[0/3 1/3 2/3 3/3 0/2 1/2 2/2]"; got != want {
		t.Errorf("steps of an update whose changes are all proposed already: %s, want %s", got, want)
	}
}
