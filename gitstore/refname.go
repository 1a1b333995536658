package gitstore

import (
	"fmt"
	"strings"
)

// CheckRefName reports whether name is a full ref name ("refs/...") that
// `git check-ref-format` accepts.
func CheckRefName(name string) error {
	if !strings.HasPrefix(name, "refs/") {
		return fmt.Errorf("ref %q: a full ref name starts with refs/ (like refs/heads/main)", name)
	}
	if reason := refNameProblem(name); reason != "" {
		return fmt.Errorf("ref %q: %s; pick another name", name, reason)
	}
	return nil
}

// refNameProblem returns why git would reject name, or "".
func refNameProblem(name string) string {
	switch {
	case strings.HasSuffix(name, "/") || strings.Contains(name, "//"):
		return "it has an empty component"
	case strings.HasSuffix(name, "."):
		return "it ends with a dot"
	case strings.Contains(name, ".."):
		return "it contains \"..\""
	case strings.Contains(name, "@{"):
		return "it contains \"@{\""
	case name == "@":
		return "it is \"@\""
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return fmt.Sprintf("it contains the character %q", c)
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return "a component starts with a dot"
		}
		if strings.HasSuffix(part, ".lock") {
			return "a component ends with .lock"
		}
	}
	return ""
}

// ShortRef is the name a person gives branch ref: ref without "refs/heads/". Other refs are
// returned whole.
func ShortRef(ref string) string { return strings.TrimPrefix(ref, "refs/heads/") }

// ShortHash is commit id h cut to the 12 hex digits skillgit shows; a shorter text is
// returned whole.
func ShortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
