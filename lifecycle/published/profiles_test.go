package published

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

func TestProfile(t *testing.T) {
	dir := profileRepo(t, map[string][]string{"ordered": {"gamma", "alpha"}, "broken": {"beta", "ghost"}})
	r := channel(t, dir)
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
	_, err := channel(t, newRepo(t, nil)).Profile("any")
	if !errors.Is(err, ErrUnknownProfile) || !strings.Contains(err.Error(), "defines no profiles") {
		t.Errorf("err = %v", err)
	}
}

func TestProfileProblems(t *testing.T) {
	dir := profileRepo(t, map[string][]string{"p": {"alpha"}})
	r := channel(t, dir)
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
