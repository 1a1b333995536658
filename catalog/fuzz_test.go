package catalog

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzParse feeds arbitrary bytes to Parse and ParseFrontmatter and checks
// that they never panic and that what they return is consistent. The seed
// corpus lives in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, lenient bool) {
		mode := Strict
		if lenient {
			mode = Lenient
		}
		dir := "skills/pdf-tools"
		s, problems := Parse(dir, data, mode)
		checkOutcome(t, dir, s, problems, mode)
		if s != nil && s.Body != "" && !bytes.HasSuffix(data, []byte(s.Body)) {
			t.Errorf("body %q is not the end of the file", s.Body)
		}
		fs, fsProblems := ParseFrontmatter(dir, bytes.NewReader(data), mode)
		checkOutcome(t, dir, fs, fsProblems, mode)
		checkSameAsParse(t, s, problems, fs, fsProblems)
	})
}

// checkOutcome checks the invariants of one Parse result.
func checkOutcome(t *testing.T, dir string, s *Skill, problems []Problem, mode Mode) {
	t.Helper()
	errs := 0
	for _, p := range problems {
		if !p.Warning {
			errs++
		}
		if p.File != dir && p.File != dir+"/SKILL.md" {
			t.Errorf("problem about %q, want %q or its SKILL.md", p.File, dir)
		}
		if p.Line < 0 || p.Message == "" || strings.ToLower(p.Message[:1]) != p.Message[:1] {
			t.Errorf("malformed problem %#v", p)
		}
	}
	if (s == nil) != (errs > 0) {
		t.Fatalf("skill %v returned with %d errors: %v", s, errs, problems)
	}
	if s == nil {
		return
	}
	if s.Dir != dir || s.Description == "" || !utf8.ValidString(s.Name) || !utf8.ValidString(s.Description) {
		t.Errorf("malformed skill %#v", s)
	}
	if mode == Lenient && !safeFolderName(s.Name) {
		t.Errorf("lenient skill loaded under unsafe name %q", s.Name)
	}
	if mode == Strict && ValidateName(s.Name) != nil {
		t.Errorf("strict skill loaded with invalid name %q: %v", s.Name, ValidateName(s.Name))
	}
}

// checkSameAsParse checks that reading only the frontmatter finds what
// reading the whole file finds, apart from the body and its encoding.
func checkSameAsParse(t *testing.T, s *Skill, problems []Problem, fs *Skill, fsProblems []Problem) {
	t.Helper()
	if len(problems) > 0 && strings.HasPrefix(problems[0].Message, "file is ") {
		return // over the size limit: only the frontmatter reader may parse it
	}
	bodyProblem := false
	var want []Problem
	for _, p := range problems {
		if strings.HasPrefix(p.Message, "body is not valid UTF-8") {
			bodyProblem = true
			continue
		}
		want = append(want, p)
	}
	if diff := cmp.Diff(want, fsProblems, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("ParseFrontmatter problems differ from Parse (-parse +frontmatter):\n%s", diff)
	}
	if bodyProblem && s == nil {
		return
	}
	if s != nil {
		c := *s
		c.Body = ""
		s = &c
	}
	if diff := cmp.Diff(s, fs, cmpSkill); diff != "" {
		t.Errorf("ParseFrontmatter skill differs from Parse (-parse +frontmatter):\n%s", diff)
	}
}

// asciiName is the naming rule spelled out for ASCII, to check ValidateName against.
var asciiName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// FuzzValidateName checks ValidateName against the ASCII form of the rule,
// and checks that every name it accepts makes a strictly valid scaffold.
// The seed corpus lives in testdata/fuzz/FuzzValidateName.
func FuzzValidateName(f *testing.F) {
	f.Fuzz(func(t *testing.T, name string) {
		err := ValidateName(name)
		if err != nil {
			if !errors.Is(err, ErrInvalidName) || !strings.HasPrefix(err.Error(), "name ") {
				t.Fatalf("ValidateName(%q) = %v, want a name error", name, err)
			}
		}
		if isASCII(name) {
			want := asciiName.MatchString(name) && len(name) <= MaxNameLength
			if (err == nil) != want {
				t.Fatalf("ValidateName(%q) = %v, want valid=%v", name, err, want)
			}
		}
		if err != nil {
			return
		}
		if !safeFolderName(name) && !IsReservedName(name) {
			t.Fatalf("valid name %q is not a safe folder name", name)
		}
		s, problems := Parse("skills/"+name, Scaffold(name, "Does things."), Strict)
		if s == nil || (len(problems) != 0 && !IsReservedName(name)) {
			t.Fatalf("scaffold of valid name %q does not parse: %v", name, problems)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
