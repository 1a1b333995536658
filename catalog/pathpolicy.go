package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The path policy: the one set of rules every file and folder name in a skill folder must
// pass, whatever brings it in (a folder on disk, a pack, an agent over MCP, a git tree
// about to be approved, published or installed). A name passes when it is one plain path
// element that every common system stores as itself: no control characters, no device
// names, no look-alike of SKILL.md, no two names that differ only in case.

// MaxNameBytes is the longest file or folder name, in bytes, that the path policy accepts:
// the limit of most file systems.
const MaxNameBytes = 255

// Bounds on what CheckFolder walks; WriteDir and packs stop sooner.
const (
	maxPolicyDepth   = 128
	maxPolicyEntries = 1_000_000
)

// ErrUnsafePath is wrapped by every error of the path policy.
var ErrUnsafePath = errors.New("path refused")

// PathError names a path the policy refuses and why.
type PathError struct {
	// Path is the path as given, relative to the skill folder.
	Path string
	// Reason follows the quoted path, such as "has a backslash; separate folders with /".
	Reason string
}

// Error returns the quoted path followed by the reason, so control characters show escaped.
func (e *PathError) Error() string { return fmt.Sprintf("%q %s", e.Path, e.Reason) }

// Is reports whether target is ErrUnsafePath.
func (e *PathError) Is(target error) bool { return target == ErrUnsafePath }

// CheckName applies the path policy to one file or folder name.
func CheckName(name string) error {
	if reason := nameFault(name); reason != "" {
		return &PathError{Path: name, Reason: reason}
	}
	return nil
}

// CheckPath applies the path policy to a slash path relative to a skill folder: it must
// stay inside the folder and each of its elements must pass CheckName.
func CheckPath(p string) error {
	var s PathSet
	return s.Add(p)
}

// CheckFolder applies the path policy to every file and folder below dir in fsys, names
// that differ only in case included. Symbolic links are checked by name, never followed.
func CheckFolder(fsys fs.FS, dir string) error {
	var s PathSet
	return s.walk(fsys, dir, "", 0)
}

func (s *PathSet) walk(fsys fs.FS, dir, rel string, depth int) error {
	if depth > maxPolicyDepth {
		return &PathError{Path: rel, Reason: fmt.Sprintf("holds folders nested deeper than %d levels; flatten them", maxPolicyDepth)}
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return err
	}
	if len(s.seen)+len(entries) > maxPolicyEntries {
		return &PathError{Path: rel, Reason: fmt.Sprintf("holds more than %d files and folders", maxPolicyEntries)}
	}
	for _, e := range entries {
		p, err := s.AddEntry(rel, e.Name())
		if err != nil {
			return err
		}
		if e.IsDir() {
			if err := s.walk(fsys, path.Join(dir, e.Name()), p, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// PathSet collects the paths of one skill folder. Each path added must pass the policy and
// must not differ only in case (or Unicode normalisation) from one added before; the same
// path twice is fine. The zero value is ready to use.
type PathSet struct {
	seen map[string]string // folded path → path as first added
}

// Add applies the policy to slash path p and to every folder on it.
func (s *PathSet) Add(p string) error {
	if reason := pathShapeFault(p); reason != "" {
		return &PathError{Path: p, Reason: reason}
	}
	rel := ""
	for elem := range strings.SplitSeq(p, "/") {
		next, reason := s.add(rel, elem)
		if reason != "" {
			return &PathError{Path: p, Reason: reason}
		}
		rel = next
	}
	return nil
}

// AddEntry applies the policy to name, an entry of folder dir ("" for the top), and returns
// the entry's path. Unlike Add, it takes the name as one element: a slash in it is refused.
func (s *PathSet) AddEntry(dir, name string) (string, error) {
	p, reason := s.add(dir, name)
	if reason != "" {
		return p, &PathError{Path: joinRel(dir, name), Reason: reason}
	}
	return p, nil
}

// add checks entry name of folder dir and records it; it returns the entry's path and the
// reason it is refused, if it is.
func (s *PathSet) add(dir, name string) (string, string) {
	p := joinRel(dir, name)
	key := joinRel(s.key(dir), foldCase(name))
	if prev, ok := s.seen[key]; ok && prev != p {
		return p, fmt.Sprintf("and %q differ only in case, so they collide on Windows and macOS; rename one", prev)
	}
	if reason := nameFault(name); reason != "" {
		return p, reason
	}
	if s.seen == nil {
		s.seen = map[string]string{}
	}
	s.seen[key] = p
	return p, ""
}

// key is the folded form of a folder already added, "" for the top.
func (s *PathSet) key(dir string) string {
	if dir == "" {
		return ""
	}
	var b strings.Builder
	for elem := range strings.SplitSeq(dir, "/") {
		if b.Len() > 0 {
			b.WriteByte('/')
		}
		b.WriteString(foldCase(elem))
	}
	return b.String()
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// pathShapeFault refuses a path that is empty, absolute or written with backslashes.
func pathShapeFault(p string) string {
	switch {
	case p == "":
		return "is empty; name the file inside the skill folder"
	case strings.ContainsRune(p, '\\'):
		return "has a backslash; separate folders with /"
	case strings.HasPrefix(p, "/") || len(p) >= 2 && p[1] == ':':
		return "is absolute; give a path relative to the skill folder, such as scripts/run.sh"
	}
	return ""
}

// nameFault returns why name is not one plain path element, or "".
func nameFault(name string) string {
	switch {
	case name == "" || name == ".":
		return "has an empty or . element; write it like scripts/run.sh"
	case name == "..":
		return "has a .. element; every file must stay inside the skill folder"
	case !utf8.ValidString(name) || strings.ContainsFunc(name, isControl):
		return "has a control character or invalid UTF-8; rename it with printable characters"
	case strings.ContainsAny(name, `/\`):
		return "has a path separator in one name"
	case strings.ContainsRune(name, ':'):
		return "has a colon, which Windows reads as a drive or a data stream"
	case len(name) > MaxNameBytes:
		return fmt.Sprintf("has a name of %d bytes; at most %d", len(name), MaxNameBytes)
	case isGitName(name):
		return "names .git, which git does not store"
	case IsReservedName(name):
		return "is a device name that Windows reserves (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension); rename it"
	case name != FileName && skeleton(name) == skillFileSkeleton:
		return "looks like " + FileName + " but is not; the skill file must be named exactly " + FileName
	}
	return ""
}

// isControl reports C0 and C1 control characters and the invisible marks that reorder
// text, which make a name display as another.
func isControl(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// isGitName reports a name git or Windows would read as .git.
func isGitName(name string) bool {
	trimmed := strings.ToLower(strings.TrimRight(name, ". "))
	return trimmed == ".git" || trimmed == "git~1"
}

// foldCase maps a name to the form case-insensitive, normalisation-insensitive file
// systems compare: NFC, case folded, trailing dots and spaces dropped as Windows does.
func foldCase(name string) string {
	name = strings.TrimRight(norm.NFC.String(name), ". ")
	return strings.ToLower(strings.ToUpper(name))
}

// lookAlikes maps letters that render like the letters of "skill.md" to them.
var lookAlikes = map[rune]rune{
	'ѕ': 's', 'Ѕ': 's', 'Ꮪ': 's', 'ꜱ': 's',
	'к': 'k', 'К': 'k', 'κ': 'k', 'Κ': 'k', 'Ꮶ': 'k', 'ᴋ': 'k',
	'i': 'l', 'і': 'l', 'І': 'l', 'ι': 'l', 'Ι': 'l', 'Ӏ': 'l', 'ӏ': 'l', 'ı': 'l', 'ɪ': 'l',
	'1': 'l', '|': 'l', 'ǀ': 'l', 'ʟ': 'l', 'Ꮮ': 'l',
	'м': 'm', 'М': 'm', 'μ': 'm', 'Μ': 'm', 'Ꮇ': 'm', 'ᴍ': 'm',
	'ԁ': 'd', 'Ԁ': 'd', 'Ꭰ': 'd', 'ᑯ': 'd',
}

// skillFileSkeleton is the skeleton of FileName.
var skillFileSkeleton = skeleton(FileName)

// skeleton reduces a name to how it looks: compatibility forms and accents dropped,
// invisible characters removed, look-alike letters mapped to Latin, case folded, and
// the trailing dots and spaces Windows ignores cut. I, i and l all become l.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		r = unicode.ToLower(r)
		if to, ok := lookAlikes[r]; ok {
			r = to
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), ". ")
}
