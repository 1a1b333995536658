package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
)

// TestPrintListLikeTabWriter checks that the one-pass listing lays lines out as the tab writer
// does, for names of every width and descriptions of every kind.
func TestPrintListLikeTabWriter(t *testing.T) {
	lists := map[string][]*catalog.Skill{
		"plain": {
			{Name: "pdf-tools", Description: "Fill and merge PDF forms."},
			{Name: "a", Description: "Short."},
			{Name: "release-notes-writer", Description: strings.Repeat("long words ", 30)},
		},
		"empty description":   {{Name: "one", Description: ""}, {Name: "three-wide", Description: "x"}},
		"unicode":             {{Name: "überprüfung", Description: "Prüft — alles."}, {Name: "日本語", Description: "説明\t\u202e"}},
		"no skills":           {},
		"one":                 {{Name: "solo", Description: "Alone."}},
		"a tab in a name":     {{Name: "a\tb", Description: "odd"}, {Name: "c", Description: "d"}},
		"a newline in a name": {{Name: "a\nb", Description: "odd"}, {Name: "cc", Description: "d"}},
		"invalid UTF-8":       {{Name: "a\xffb", Description: "odd"}, {Name: "cc", Description: "d"}},
	}
	for name, skills := range lists {
		var got, want bytes.Buffer
		if err := printList(&got, skills); err != nil {
			t.Fatal(err)
		}
		if err := printListTabbed(&want, skills); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: printList wrote\n%q\nthe tab writer\n%q", name, got.String(), want.String())
		}
	}
}
