package lifecycle

import (
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
)

func TestCheckRenamedRefusesWhatDoesNotNameTheSkill(t *testing.T) {
	ok := "---\nname: new-name\ndescription: Does a thing. Use when a thing is needed.\n---\nBody.\n"
	if err := checkRenamed([]byte(ok), "new-name", catalog.Strict); err != nil {
		t.Errorf("checkRenamed(valid) = %v", err)
	}
	bad := []string{
		// a block scalar: the rewrite lands on its indicator line and the value runs on.
		"---\nname: new-name\n  old-name\ndescription: Does a thing. Use when needed.\n---\n",
		// the rewrite landed inside a quoted description; the real name is unchanged.
		"---\ndescription: \"Spans\nname: new-name\nlines. Use when needed.\"\nname: old-name\n---\n",
	}
	for _, b := range bad {
		for _, mode := range []catalog.Mode{catalog.Strict, catalog.Lenient} {
			if err := checkRenamed([]byte(b), "new-name", mode); err == nil {
				t.Errorf("checkRenamed(%q, %v) = nil; want a refusal", b, mode)
			}
		}
	}
	long := "---\nname: new-name\ndescription: " + strings.Repeat("Long. ", 200) + "\n---\nBody.\n"
	if err := checkRenamed([]byte(long), "new-name", catalog.Strict); err == nil {
		t.Error("checkRenamed(long description, strict) = nil; want a refusal")
	}
	if err := checkRenamed([]byte(long), "new-name", catalog.Lenient); err != nil {
		t.Errorf("checkRenamed(long description, lenient) = %v", err)
	}
}
