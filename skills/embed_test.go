package skills

import (
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
)

// TestPackIsStrictlyValid checks that every built-in skill passes the strict
// validator, so `init --builtin` can publish them as new skills.
func TestPackIsStrictlyValid(t *testing.T) {
	res, err := catalog.Discover(FS(), ".", catalog.Options{Mode: catalog.Strict})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		t.Errorf("%s", p)
	}
	var names []string
	for _, s := range res.Skills {
		names = append(names, s.Name)
		if s.Body == "" {
			t.Errorf("%s: empty body", s.Name)
		}
	}
	if diff := cmp.Diff([]string{"skill-authoring", "skillgit"}, names); diff != "" {
		t.Errorf("built-in skills (-want +got):\n%s", diff)
	}
}

// TestPackAuditsLow checks that the audit finds nothing in the built-in
// skills: they are what a new repository publishes before anyone reviews it.
func TestPackAuditsLow(t *testing.T) {
	entries, err := fs.ReadDir(FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		sub, err := fs.Sub(FS(), e.Name())
		if err != nil {
			t.Fatal(err)
		}
		rep, err := audit.Scan(sub, audit.Options{Skill: e.Name()})
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if rep.Risk != audit.RiskLow {
			t.Errorf("%s: risk %s, want low", e.Name(), rep.Risk)
		}
		for _, f := range rep.Findings {
			t.Errorf("%s: finding %s at %s:%d: %s", e.Name(), f.RuleID, f.File, f.Line, f.Message)
		}
	}
}
