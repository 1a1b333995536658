package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
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
