package policy

import "testing"

// TestMarkManaged checks where the mark goes in a frontmatter, that every other byte stays,
// and the shapes it leaves alone.
func TestMarkManaged(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"---\nname: a\ndescription: d\n---\n# A\n", "---\nname: a\ndescription: d\nmetadata:\n  managed-by: skillgit\n---\n# A\n"},
		{"---\nname: a\nmetadata:\n    owner: x\ndescription: d\n---\nbody\n---\n", "---\nname: a\nmetadata:\n    managed-by: skillgit\n    owner: x\ndescription: d\n---\nbody\n---\n"},
		{"---\nname: a\nmetadata: {owner: x}\n---\n", ""},
		{"---\r\nname: a\r\n---\r\n", ""},
		{"---\nname: a\nmetadata:\n  managed-by: people\n---\n", ""},
		{"name: a\n", ""},
	} {
		got, ok := MarkManaged([]byte(tc.in))
		if ok != (tc.want != "") || ok && string(got) != tc.want {
			t.Errorf("MarkManaged(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}
