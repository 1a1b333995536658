package catalog

import "testing"

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{p: problem("skills/x/SKILL.md", 3, "name is bad"), want: "skills/x/SKILL.md:3: name is bad"},
		{p: warning("skills/x/SKILL.md", 3, "name is long"), want: "skills/x/SKILL.md:3: warning: name is long"},
		{p: problem("skills/x", 0, "folder has no SKILL.md"), want: "skills/x: folder has no SKILL.md"},
		{p: warning("skills/x", 0, "deep"), want: "skills/x: warning: deep"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestModeAndFile(t *testing.T) {
	if Strict.String() != "strict" || Lenient.String() != "lenient" {
		t.Errorf("mode names = %q, %q", Strict, Lenient)
	}
	s := &Skill{Dir: "skills/review/code-quality"}
	if got := s.File(); got != "skills/review/code-quality/SKILL.md" {
		t.Errorf("File() = %q", got)
	}
}
