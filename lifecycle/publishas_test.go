package lifecycle

import "testing"

func TestRenameSkillNameKeepsOtherBytes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"---\nname: old\ndescription: d\n---\nbody\n", "---\nname: new\ndescription: d\n---\nbody\n"},
		{"---\r\nname:   old\r\ndescription: d\r\n---\r\n", "---\r\nname:   new\r\ndescription: d\r\n---\r\n"},
		{"---\ndescription: d\nname:old\n---\n", "---\ndescription: d\nname: new\n---\n"},
	}
	for _, tc := range cases {
		got, err := renameSkillName([]byte(tc.in), "new")
		if err != nil || string(got) != tc.want {
			t.Errorf("renameSkillName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"name: old\n", "---\ndescription: d\n---\nname: old\n"} {
		if got, err := renameSkillName([]byte(bad), "new"); err == nil {
			t.Errorf("renameSkillName(%q) = %q; want an error", bad, got)
		}
	}
}

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
