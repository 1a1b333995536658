package lifecycle

import (
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// profileRepo is a repository with alpha, beta and gamma published and the given profiles.
func profileRepo(t *testing.T, profiles map[string][]string) string {
	t.Helper()
	dir := newRepo(t)
	cfg := policy.DefaultConfig("main")
	cfg.Profiles = profiles
	testenv.WriteFiles(t, dir, map[string]string{
		policy.ConfigFile:           string(cfg.Marshal()),
		"skills/alpha/SKILL.md":     testenv.SkillMD("alpha", cleanLine),
		"skills/beta/SKILL.md":      testenv.SkillMD("beta", cleanLine),
		"skills/cat/gamma/SKILL.md": testenv.SkillMD("gamma", cleanLine),
	})
	testenv.CommitAll(t, dir, "skills and profiles")
	return dir
}

func TestPublishWarnsDanglingProfile(t *testing.T) {
	dir := profileRepo(t, map[string][]string{"p": {"alpha", "beta"}})
	res, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: "alpha", Delete: true, Message: "retire"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	pub, err := open(t, dir).Publish(res.ID, "", lead)
	if err != nil {
		t.Fatal(err)
	}
	want := `warning: .skillgit.yaml: profile "p": skill "alpha" is not published on main; publish it or remove it from the profile`
	if !contains(pub.Warnings, want) {
		t.Errorf("publish warnings = %q, want %q", pub.Warnings, want)
	}
	rb, err := open(t, dir).Rollback("alpha", "", lead)
	if err != nil {
		t.Fatal(err)
	}
	if contains(rb.Warnings, want) {
		t.Errorf("rollback restored alpha, yet warns: %q", rb.Warnings)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
