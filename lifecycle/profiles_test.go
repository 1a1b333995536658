package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
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

func names(skills []*catalog.Skill) []string {
	out := make([]string, len(skills))
	for i, s := range skills {
		out[i] = s.Name
	}
	return out
}

func TestProfile(t *testing.T) {
	dir := profileRepo(t, map[string][]string{"ordered": {"gamma", "alpha"}, "broken": {"beta", "ghost"}})
	r := open(t, dir)
	got, err := r.Profile("ordered")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"gamma", "alpha"}, names(got)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	_, err = r.Profile("nope")
	if !errors.Is(err, ErrUnknownProfile) || !strings.Contains(err.Error(), "known profiles: broken, ordered") {
		t.Errorf("unknown profile: %v", err)
	}
	_, err = r.Profile("broken")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `profile "broken": skill "ghost" not found on main`) {
		t.Errorf("missing skill: %v", err)
	}
}

func TestProfileNoProfiles(t *testing.T) {
	_, err := open(t, newRepo(t)).Profile("any")
	if !errors.Is(err, ErrUnknownProfile) || !strings.Contains(err.Error(), "defines no profiles") {
		t.Errorf("err = %v", err)
	}
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

func TestProfileProblems(t *testing.T) {
	dir := profileRepo(t, map[string][]string{"p": {"alpha"}})
	r := open(t, dir)
	if ps, err := r.ProfileProblems(); err != nil || len(ps) != 0 {
		t.Fatalf("clean: %v %v", ps, err)
	}
	// The working tree's file is what the user edits; it is what is checked.
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: "profiles:\n  p: [alpha, draft]\n"})
	ps, err := r.ProfileProblems()
	want := []catalog.Problem{{File: policy.ConfigFile, Message: `profile "p": skill "draft" is not published on main; publish it or remove it from the profile`}}
	if err != nil || !cmp.Equal(want, ps) {
		t.Errorf("dangling: %v, %v", ps, err)
	}
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: "profiles:\n  p: [alpha, alpha]\n"})
	ps, err = r.ProfileProblems()
	if err != nil || len(ps) != 1 || ps[0].Line != 2 || !strings.Contains(ps[0].Message, "listed twice") {
		t.Errorf("parse error: %v, %v", ps, err)
	}
}
