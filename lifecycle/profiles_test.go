package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/testenv"
)

func TestParseConfigProfiles(t *testing.T) {
	c, err := ParseConfig([]byte("profiles:\n  task_spec_check: [safe-shell-search, jeeves-task-spec-check, code-quality]\n  Other-1:\n    - a\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"task_spec_check": {"safe-shell-search", "jeeves-task-spec-check", "code-quality"},
		"Other-1":         {"a"},
	}
	if diff := cmp.Diff(want, c.Profiles); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
	again, err := ParseConfig(c.Marshal())
	if err != nil || !cmp.Equal(c.Profiles, again.Profiles) {
		t.Errorf("round trip: %v, %v", err, again)
	}
}

func TestParseConfigProfileErrors(t *testing.T) {
	many := "profiles:\n  big:\n" + strings.Repeat("    - s\n", 101)
	tests := []struct {
		name, in string
		line     int
		want     string
	}{
		{"bad profile name", "profiles:\n  'a b': [x]\n", 2, `profile name "a b" must be 1 to 64 letters`},
		{"long profile name", "profiles:\n  " + strings.Repeat("p", 65) + ": [x]\n", 2, `must be 1 to 64`},
		{"empty list", "profiles:\n  p: []\n", 2, `profile "p" lists no skills`},
		{"null list", "profiles:\n  p:\n", 2, `profile "p" lists no skills`},
		{"too many", many, 2, `profile "big" lists 101 skills; at most 100`},
		{"bad skill name", "profiles:\n  p:\n    - ok\n    - Bad_Name\n", 4, `profile "p": skill name "Bad_Name" must`},
		{"repeated skill", "profiles:\n  p: [a, b, a]\n", 2, `profile "p": skill "a" is listed twice`},
		{"nested entry", "profiles:\n  p:\n    - [a]\n", 3, `profile "p": every entry must be a skill name`},
		{"not a mapping", "profiles: [a]\n", 0, `cannot unmarshal`},
		{"duplicate profile", "profiles:\n  p: [a]\n  p: [b]\n", 0, `already defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.in))
			ce, ok := errors.AsType[*ConfigError](err)
			if !ok || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseConfig error = %v (%T), want a *ConfigError containing %q", err, err, tt.want)
			}
			if ce.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", ce.Line, tt.line, err)
			}
		})
	}
}

func TestConfigErrorKeepsText(t *testing.T) {
	_, err := ParseConfig([]byte("publish_branch: main\ncolour: blue\n"))
	ce, ok := errors.AsType[*ConfigError](err)
	if !ok || ce.Line != 2 || !strings.HasPrefix(ce.Message, `unknown key "colour"`) {
		t.Fatalf("error = %#v", err)
	}
	if !strings.HasPrefix(err.Error(), `.skillgit.yaml:2: unknown key "colour"`) {
		t.Errorf("text = %q", err)
	}
	_, err = ParseConfig([]byte("mode: yolo\n"))
	if ce, ok := errors.AsType[*ConfigError](err); !ok || ce.Line != 0 || err.Error() != `.skillgit.yaml: mode "yolo" is not one of manual, assisted, autonomous` {
		t.Errorf("error = %#v", err)
	}
}

func TestCheckProfiles(t *testing.T) {
	cfg := DefaultConfig("main")
	cfg.Profiles = map[string][]string{"z": {"gone", "alpha"}, "a": {"beta", "lost", "also-lost"}}
	pub := []*catalog.Skill{{Name: "alpha"}, {Name: "beta"}}
	got := CheckProfiles(cfg, pub)
	want := []ProfileProblem{{"a", "lost"}, {"a", "also-lost"}, {"z", "gone"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckProfiles (-want +got):\n%s", diff)
	}
	if CheckProfiles(DefaultConfig("main"), pub) != nil {
		t.Error("no profiles: want no problems")
	}
	msg := want[0].Message("main")
	if msg != `profile "a": skill "lost" is not published on main; publish it or remove it from the profile` {
		t.Errorf("message = %q", msg)
	}
}

// profileRepo is a repository with alpha, beta and gamma published and the given profiles.
func profileRepo(t *testing.T, profiles map[string][]string) string {
	t.Helper()
	dir := newRepo(t)
	cfg := DefaultConfig("main")
	cfg.Profiles = profiles
	testenv.WriteFiles(t, dir, map[string]string{
		ConfigFile:                  string(cfg.Marshal()),
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
	testenv.WriteFiles(t, dir, map[string]string{ConfigFile: "profiles:\n  p: [alpha, draft]\n"})
	ps, err := r.ProfileProblems()
	want := []catalog.Problem{{File: ConfigFile, Message: `profile "p": skill "draft" is not published on main; publish it or remove it from the profile`}}
	if err != nil || !cmp.Equal(want, ps) {
		t.Errorf("dangling: %v, %v", ps, err)
	}
	testenv.WriteFiles(t, dir, map[string]string{ConfigFile: "profiles:\n  p: [alpha, alpha]\n"})
	ps, err = r.ProfileProblems()
	if err != nil || len(ps) != 1 || ps[0].Line != 2 || !strings.Contains(ps[0].Message, "listed twice") {
		t.Errorf("parse error: %v, %v", ps, err)
	}
}
