package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ErrInvalidName is wrapped by every error that ValidateName returns.
var ErrInvalidName = errors.New("invalid skill name")

// NameError describes every rule a skill name breaks.
type NameError struct {
	// Name is the name as given.
	Name string
	// Faults lists the broken rules, each phrased to follow the name,
	// such as `must be lowercase (use "pdf-tools")`.
	Faults []string
}

// Error returns `name "X" ` followed by every fault.
func (e *NameError) Error() string {
	return fmt.Sprintf("name %q %s", e.Name, strings.Join(e.Faults, ", and "))
}

// Is reports whether target is ErrInvalidName.
func (e *NameError) Is(target error) bool {
	return target == ErrInvalidName
}

// ValidateName applies the strict naming rules of the Agent Skills
// specification to name alone: after Unicode NFKC normalisation it must be 1
// to 64 characters of lowercase letters, digits and hyphens, without a
// leading, trailing or doubled hyphen. The error is a *NameError.
//
// Surrounding white space is a fault too: the frontmatter name is compared
// without it, so a folder named that way could never match its skill.
func ValidateName(name string) error {
	if plainValidName(name) {
		return nil
	}
	faults := nameFaults(normalizeName(name))
	if name != strings.TrimSpace(name) && strings.TrimSpace(name) != "" {
		faults = append(faults, "must not start or end with white space")
	}
	if len(faults) == 0 {
		return nil
	}
	return &NameError{Name: name, Faults: faults}
}

// CheckSkillName applies ValidateName and the rules skillgit adds for a name it stores as a
// folder and in branch names: only ASCII (a-z, 0-9 and hyphens, as the specification
// writes them), and not a device name Windows reserves. The error is a *NameError.
func CheckSkillName(name string) error {
	var faults []string
	var ne *NameError
	if errors.As(ValidateName(name), &ne) {
		faults = ne.Faults
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r >= utf8.RuneSelf }) {
		faults = append(faults, "must be ASCII: lowercase letters a-z, digits and hyphens")
	}
	if IsReservedName(name) {
		faults = append(faults, "is reserved on Windows as a device name; choose another")
	}
	if len(faults) == 0 {
		return nil
	}
	return &NameError{Name: name, Faults: faults}
}

// plainValidName reports a name that passes every rule on its face: 1 to MaxNameLength bytes
// of a-z, 0-9 and single hyphens, none at either end. Such a name is its own NFKC form, so
// ValidateName needs no normalisation for it.
func plainValidName(name string) bool {
	if name == "" || len(name) > MaxNameLength || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && name[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// normalizeName returns name the way the reference validator compares it:
// surrounding white space removed, then NFKC-normalised.
func normalizeName(name string) string {
	return norm.NFKC.String(strings.TrimSpace(name))
}

// nameFaults returns every strict rule an already normalised name breaks,
// in the order the reference validator checks them.
func nameFaults(name string) []string {
	if name == "" {
		return []string{"must not be empty"}
	}
	var faults []string
	if n := utf8.RuneCountInString(name); n > MaxNameLength {
		faults = append(faults, fmt.Sprintf("is %d characters long, over the limit of %d", n, MaxNameLength))
	}
	if strings.ToLower(name) != name {
		faults = append(faults, "must be lowercase"+useHint(name))
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		faults = append(faults, "must not start or end with a hyphen")
	}
	if strings.Contains(name, "--") {
		faults = append(faults, `must not contain "--" (use single hyphens)`)
	}
	if bad := badNameRunes(name); bad != "" {
		faults = append(faults, fmt.Sprintf("contains %s (use only letters, digits and hyphens)", bad))
	}
	return faults
}

// useHint is ` (use "NAME")` with a name close to name that passes every rule, or "" when
// none can be made from it.
func useHint(name string) string {
	if s := SuggestName(name); s != "" {
		return fmt.Sprintf(" (use %q)", s)
	}
	return ""
}

// SuggestName returns a name close to name that passes ValidateName, or "" when name holds
// no letter or digit to build one from: lowercase, with every run of other characters
// turned into one hyphen, no hyphen at either end, and cut to MaxNameLength characters.
func SuggestName(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(normalizeName(name)) {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			hyphen = false
			continue
		}
		hyphen = true
	}
	s := []rune(b.String())
	if len(s) > MaxNameLength {
		s = s[:MaxNameLength]
	}
	out := strings.TrimRight(string(s), "-")
	if ValidateName(out) != nil {
		return ""
	}
	return out
}

// badNameRunes quotes the distinct characters of name that are neither a
// letter, a number nor a hyphen, or returns "" when there are none. Numbers
// include every Unicode number category, as the reference validator's
// isalnum does.
func badNameRunes(name string) string {
	var bad []string
	for _, r := range name {
		if r == '-' || unicode.IsLetter(r) || unicode.IsNumber(r) {
			continue
		}
		q := strconv.Quote(string(r))
		if !slices.Contains(bad, q) {
			bad = append(bad, q)
		}
		if len(bad) == 5 {
			break
		}
	}
	return strings.Join(bad, ", ")
}

// safeFolderName reports whether name could serve as a single folder name on
// any common system, so that a lenient skill's name cannot smuggle a path.
func safeFolderName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > 255 {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r) {
			return false
		}
	}
	return !IsReservedName(name)
}

// reservedNames are the device names Windows reserves in every folder.
var reservedNames = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true,
}

// IsReservedName reports whether name is a device name that Windows reserves
// in every folder: CON, PRN, AUX, NUL, COM0-COM9 and LPT0-LPT9 (and the
// superscript forms COM¹ to LPT³), in any case, alone or followed by an
// extension such as "nul.txt". Windows ignores trailing spaces there, and so
// does this check.
func IsReservedName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	if reservedNames[base] {
		return true
	}
	prefix, digit, ok := cutDevicePrefix(base)
	return ok && (prefix == "COM" || prefix == "LPT") && isDeviceDigit(digit)
}

// cutDevicePrefix splits "COM1" into "COM" and "1".
func cutDevicePrefix(base string) (prefix, rest string, ok bool) {
	if len(base) < 4 {
		return "", "", false
	}
	return base[:3], base[3:], true
}

func isDeviceDigit(s string) bool {
	switch s {
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}
