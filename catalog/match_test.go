package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStem(t *testing.T) {
	groups := [][]string{
		{"deploy", "deploys", "deploying", "deployed", "deployment", "deployments"},
		{"migrate", "migrating", "migrated", "migration", "migrations"},
		{"test", "tests", "testing", "tested"},
		{"flaky", "flakiness"},
		{"policy", "policies"},
		{"run", "running", "runs"},
		{"patch", "patches", "patching"},
	}
	for _, g := range groups {
		want := stem(g[0])
		for _, w := range g[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q; want the same", w, got, g[0], want)
			}
		}
	}
	for _, w := range []string{"pdf", "go", "k8s", "straße", "x"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q; short and non-ASCII words stay as they are", w, got)
		}
	}
}

func TestTermsSplitAndStop(t *testing.T) {
	var got []string
	terms("Use the PDF-forms skill when filling 2 forms, a ÜBER-long ... x", func(tm term) { got = append(got, tm.word) })
	want := []string{"pdf", "forms", "filling", "forms", "über", "long"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("terms (-want +got):\n%s", diff)
	}
}

func testSkills() []*Skill {
	return []*Skill{
		{Name: "pdf-forms", Description: "Fill PDF forms. Use when a task mentions PDF form fields.", Dir: "skills/pdf-forms"},
		{Name: "pdf-extract", Description: "Extract text and tables from PDF files.", Dir: "skills/pdf-extract"},
		{Name: "k8s-deploy", Description: "Deploy services to Kubernetes clusters.", Dir: "skills/k8s-deploy"},
		{Name: "twin-b", Description: "Rotate credentials.", Dir: "skills/b/twin-b"},
		{Name: "twin-a", Description: "Rotate credentials.", Dir: "skills/a/twin-a"},
	}
}

func TestMatchRanksAndExplains(t *testing.T) {
	m := NewMatcher(testSkills())
	res := m.Match("fill in the form fields of this PDF", MatchOptions{})
	if diff := cmp.Diff([]string{"pdf-forms", "pdf-extract"}, matchNames(res.Matches)); diff != "" {
		t.Fatalf("ranking (-want +got):\n%s", diff)
	}
	top := res.Matches[0]
	if top.Hint || top.Score <= res.Matches[1].Score || !strings.HasPrefix(top.Reason, "matched fill, form, fields, pdf (score ") {
		t.Errorf("top match %+v; want a scored, explained match above the second", top)
	}
}

func TestMatchTiesAreDeterministic(t *testing.T) {
	for range 20 {
		res := NewMatcher(testSkills()).Match("rotate the credentials", MatchOptions{})
		if diff := cmp.Diff([]string{"twin-a", "twin-b"}, matchNames(res.Matches)); diff != "" {
			t.Fatalf("equal scores must order by name (-want +got):\n%s", diff)
		}
	}
}

func TestMatchHints(t *testing.T) {
	m := NewMatcher(testSkills())
	res := m.Match("deploy the PDF service; see $pdf-extract and skill: missing-one, not $PATH", MatchOptions{Hints: []string{"K8S-DEPLOY", "nope"}, Limit: 3})
	if diff := cmp.Diff([]string{"k8s-deploy", "pdf-extract", "pdf-forms"}, matchNames(res.Matches)); diff != "" {
		t.Errorf("hints first, in order, then relevance, cut at the limit (-want +got):\n%s", diff)
	}
	if !res.Matches[0].Hint || res.Matches[0].Reason != "hint" || res.Matches[2].Hint {
		t.Errorf("hint flags and reasons: %+v", res.Matches)
	}
	if diff := cmp.Diff([]string{"nope", "missing-one"}, res.UnknownHints); diff != "" {
		t.Errorf("unknown hints (-want +got):\n%s", diff)
	}
}

func TestMatchNothing(t *testing.T) {
	for _, task := range []string{"", "the and of", "zebra quantum"} {
		if res := NewMatcher(testSkills()).Match(task, MatchOptions{}); len(res.Matches) != 0 {
			t.Errorf("%q matched %v; want nothing", task, matchNames(res.Matches))
		}
	}
	if res := NewMatcher(nil).Match("pdf", MatchOptions{}); len(res.Matches) != 0 {
		t.Errorf("an empty catalog matched %v", matchNames(res.Matches))
	}
}

func TestTaskHints(t *testing.T) {
	got := TaskHints("use $pdf-forms, then Skill:  k8s-deploy and $pdf-forms again; price $5; $HOME")
	if diff := cmp.Diff([]string{"pdf-forms", "k8s-deploy"}, got); diff != "" {
		t.Errorf("TaskHints (-want +got):\n%s", diff)
	}
}
