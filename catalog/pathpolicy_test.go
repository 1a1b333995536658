package catalog

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
	"unicode/utf8"
)

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"SKILL.md", ""},
		{"scripts/run.sh", ""},
		{"references/a b.md", ""},
		{".hidden/notes.md", ""},
		{"references/café.md", ""},
		{"references/SKILL.md", ""},
		{"console.md", ""},
		{"com10.txt", ""},
		{strings.Repeat("a", MaxNameBytes), ""},
		{"", "is empty"},
		{"../x", ".. element"},
		{"a/../../x", ".. element"},
		{"/etc/passwd", "is absolute"},
		{"C:/windows", "is absolute"},
		{`a\b`, "backslash"},
		{"a//b", "empty or ."},
		{"./a", "empty or ."},
		{"a/", "empty or ."},
		{".git/config", ".git"},
		{"sub/.GIT/config", ".git"},
		{".git./config", ".git"},
		{"GIT~1/config", ".git"},
		{"a\x1bb.md", "control character"},
		{"a\nb.md", "control character"},
		{"a\x00b", "control character"},
		{"a\u0085b", "control character"},
		{"evil\u202Edm.sh", "control character"},
		{"bad\xffname", "invalid UTF-8"},
		{"notes:stream", "colon"},
		{"CON", "device name"},
		{"con", "device name"},
		{"aux.txt", "device name"},
		{"scripts/Nul.tar.gz", "device name"},
		{"PRN", "device name"},
		{"COM1", "device name"},
		{"com9.log", "device name"},
		{"LPT1", "device name"},
		{"lpt9.md", "device name"},
		{"AUX ", "device name"},
		{"SKІLL.md", "looks like SKILL.md"}, // Cyrillic І
		{"ЅKILL.md", "looks like SKILL.md"}, // Cyrillic Ѕ
		{"SKILL.ｍd", "looks like SKILL.md"}, // fullwidth m
		{"SK\u200bILL.md", "looks like SKILL.md"},
		{"skill.md", "looks like SKILL.md"},
		{"Skill.MD", "looks like SKILL.md"},
		{"SK1LL.md", "looks like SKILL.md"},
		{"SKILL.md.", "looks like SKILL.md"},
		{"SKÍLL.md", "looks like SKILL.md"},
		{"references/ѕkill.md", "looks like SKILL.md"},
		{strings.Repeat("a", MaxNameBytes+1), "256 bytes"},
		{"dir/" + strings.Repeat("é", 128) + "/x", "256 bytes"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			err := CheckPath(tc.path)
			checkPolicyErr(t, err, tc.want)
			if err != nil && !strings.HasPrefix(err.Error(), strconv.Quote(tc.path)) {
				t.Errorf("error %q does not start with the quoted path", err)
			}
		})
	}
}

func TestCheckName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"SKILL.md", ""},
		{"run.sh", ""},
		{"../../x", "path separator"},
		{"..", ".. element"},
		{"a/b", "path separator"},
		{`a\b`, "path separator"},
		{"lpt3", "device name"},
		{"ѕkіll.md", "looks like SKILL.md"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkPolicyErr(t, CheckName(tc.name), tc.want) })
	}
}

func TestPathSetCaseCollisions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"distinct", []string{"SKILL.md", "a.md", "scripts/a.md"}, ""},
		{"same path twice", []string{"scripts/run.sh", "scripts/run.sh"}, ""},
		{"files", []string{"a.md", "A.md"}, `"A.md" and "a.md" differ only in case`},
		{"folders", []string{"Scripts/a.sh", "scripts/b.sh"}, `"scripts/b.sh" and "Scripts" differ only in case`},
		{"file and its folder", []string{"x/y", "X"}, `differ only in case`},
		{"lowercase skill file", []string{"SKILL.md", "skill.md"}, `and "SKILL.md" differ only in case`},
		{"normalisation", []string{"café.md", "cafe\u0301.md"}, "differ only in case"},
		{"trailing dot", []string{"notes", "notes."}, "differ only in case"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s PathSet
			var err error
			for _, p := range tc.paths {
				if err = s.Add(p); err != nil {
					break
				}
			}
			checkPolicyErr(t, err, tc.want)
		})
	}
}

func TestCheckFolder(t *testing.T) {
	md := &fstest.MapFile{Data: []byte("---\nname: x\ndescription: y\n---\n")}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"plain", []string{"SKILL.md", "scripts/run.sh", "references/a.md"}, ""},
		{"escape", []string{"SKILL.md", "a\x1b]0;pwned\a.md"}, `"a\x1b]0;pwned\a.md" has a control character`},
		{"look-alike", []string{"SKILL.md", "SKІLL.md"}, `"SKІLL.md" looks like SKILL.md`},
		{"nested device", []string{"SKILL.md", "assets/CON"}, `"assets/CON" is a device name`},
		{"case", []string{"SKILL.md", "docs/A.md", "docs/a.md"}, `"docs/a.md" and "docs/A.md" differ only in case`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tc.files {
				fsys["skill/"+f] = md
			}
			checkPolicyErr(t, CheckFolder(fsys, "skill"), tc.want)
		})
	}
}

func TestCheckSkillName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"pdf-tools", ""},
		{"a1", ""},
		{"café", `name "café" must be ASCII`},
		{"ünï", "must be ASCII"},
		{"раdf", "must be ASCII"}, // Cyrillic р and а
		{"Pdf", "must be lowercase"},
		{"con", "device name"},
		{"lpt1", "device name"},
		{"a--b", `"--"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckSkillName(tc.name)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("CheckSkillName(%q) = %v; want nil", tc.name, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("CheckSkillName(%q) = %v; want an error saying %q", tc.name, err, tc.want)
			case err != nil && !errors.Is(err, ErrInvalidName):
				t.Fatalf("CheckSkillName(%q) = %v; want it to wrap ErrInvalidName", tc.name, err)
			}
		})
	}
}

// checkPolicyErr fails unless err is nil when want is empty, and otherwise a policy error
// whose text holds want.
func checkPolicyErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("got %v; want no error", err)
	case want != "" && err == nil:
		t.Fatalf("got no error; want one saying %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("got %q; want it to say %q", err, want)
	case err != nil && !errors.Is(err, ErrUnsafePath):
		t.Fatalf("got %v; want it to wrap ErrUnsafePath", err)
	}
}

// FuzzCheckPath checks that a path the policy accepts is a valid fs.FS path of printable
// UTF-8 whose every name is short, not a device name and not a look-alike of SKILL.md.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"SKILL.md", "scripts/run.sh", "a/../b", "CON.txt", "SKІLL.md", "a\x1bb", "C:/x", `a\b`, ".git/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		if !fs.ValidPath(p) || !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl) || strings.ContainsAny(p, `\:`) {
			t.Fatalf("CheckPath(%q) accepted a path that is not plain", p)
		}
		for elem := range strings.SplitSeq(p, "/") {
			if len(elem) > MaxNameBytes || IsReservedName(elem) || isGitName(elem) || elem != FileName && strings.EqualFold(elem, FileName) {
				t.Fatalf("CheckPath(%q) accepted the name %q", p, elem)
			}
		}
	})
}

func TestCheckFolderDepth(t *testing.T) {
	deep := "skill/" + strings.Repeat("d/", maxPolicyDepth+1) + "f.md"
	fsys := fstest.MapFS{"skill/SKILL.md": {}, deep: {}}
	checkPolicyErr(t, CheckFolder(fsys, "skill"), "nested deeper than")
}
