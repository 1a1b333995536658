package lifecycle

import "testing"

func TestCheckRenamedRefusesWhatDoesNotNameTheSkill(t *testing.T) {
	ok := "---\nname: new-name\ndescription: Does a thing. Use when a thing is needed.\n---\nBody.\n"
	if err := checkRenamed([]byte(ok), "new-name"); err != nil {
		t.Errorf("checkRenamed(valid) = %v", err)
	}
	bad := []string{
		// a block scalar: the rewrite lands on its indicator line and the value runs on.
		"---\nname: new-name\n  old-name\ndescription: Does a thing. Use when needed.\n---\n",
		// the rewrite landed inside a quoted description; the real name is unchanged.
		"---\ndescription: \"Spans\nname: new-name\nlines. Use when needed.\"\nname: old-name\n---\n",
	}
	for _, b := range bad {
		if err := checkRenamed([]byte(b), "new-name"); err == nil {
			t.Errorf("checkRenamed(%q) = nil; want a refusal", b)
		}
	}
}
