package packs

import (
	"errors"
	"testing"

	"github.com/skillgit/skillgit/lifecycle/policy"
)

func TestSelected(t *testing.T) {
	p := policy.Pack{Include: []string{"g*", "tidy"}, Exclude: []string{"greet-*"}}
	for name, want := range map[string]bool{"greet": true, "tidy": true, "greet-all": false, "pdf": false} {
		if got := selected(p, name); got != want {
			t.Errorf("selected(%q) = %v; want %v", name, got, want)
		}
	}
	if !selected(policy.Pack{}, "anything") {
		t.Error("a pack with no globs leaves a skill out")
	}
	if err := policy.CheckPackSelection(policy.Pack{Name: "p", Include: []string{"[a"}}); err == nil {
		t.Error("a bad glob was accepted")
	}
}

func TestMergeSource(t *testing.T) {
	src := Source{URL: "https://github.com/o/r", Ref: "main", Path: "skills/pdf"}
	p, err := mergeSource(policy.Pack{Name: "p", URL: "raw"}, src)
	if err != nil || p.URL != src.URL || p.Ref != "main" || p.Path != "skills/pdf" {
		t.Fatalf("merge: %+v %v", p, err)
	}
	if _, err := mergeSource(policy.Pack{Name: "p", URL: "raw", Path: "skills/docx"}, src); !errors.Is(err, ErrSourceFlags) {
		t.Fatalf("contradicting --path: %v", err)
	}
	if p, err := mergeSource(policy.Pack{Name: "p", URL: "raw", Ref: "main"}, src); err != nil || p.Ref != "main" {
		t.Fatalf("agreeing --ref: %+v %v", p, err)
	}
}
