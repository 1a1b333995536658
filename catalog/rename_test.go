package catalog

import "testing"

func TestRenameSkillKeepsOtherBytes(t *testing.T) {
	cases := []struct{ in, name, want string }{
		{"---\nname: old\ndescription: d\n---\nbody\n", "new", "---\nname: new\ndescription: d\n---\nbody\n"},
		{"---\r\nname:   old\r\ndescription: d\r\n---\r\n", "new", "---\r\nname:   new\r\ndescription: d\r\n---\r\n"},
		{"---\ndescription: d\nname:old\n---\n", "new", "---\ndescription: d\nname: new\n---\n"},
		{"---\nname: pdf\ndescription: d\n---\nname: pdf\n", "v-pdf", "---\nname: v-pdf\ndescription: d\n---\nname: pdf\n"},
		{"---\r\ndescription: d\r\nname:   'pdf'\r\n---\r\n", "v-pdf", "---\r\ndescription: d\r\nname:   v-pdf\r\n---\r\n"},
		{"---\nname: csv-cleaner\ndescription: x\n---\nname: in the body stays\n", "clean-csv", "---\nname: clean-csv\ndescription: x\n---\nname: in the body stays\n"},
	}
	for _, tc := range cases {
		got, err := RenameSkill([]byte(tc.in), tc.name)
		if err != nil || string(got) != tc.want {
			t.Errorf("RenameSkill(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"name: old\n", "no frontmatter\nname: x\n", "---\ndescription: d\n---\nname: old\n"} {
		if got, err := RenameSkill([]byte(bad), "new"); err == nil {
			t.Errorf("RenameSkill(%q) = %q; want an error", bad, got)
		}
	}
}
