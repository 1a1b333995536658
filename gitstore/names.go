package gitstore

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// checkEntryName rejects tree entry names that git refuses to check out or
// that fsck --strict flags: empty, "." and "..", names with "/", "\" or
// NUL, and every spelling of ".git" that a case-insensitive, HFS+ or NTFS
// file system would treat as ".git".
func checkEntryName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("tree entry name %q is not allowed", name)
	case strings.ContainsAny(name, "/\\\x00"):
		return fmt.Errorf("tree entry name %q contains a path separator or NUL", name)
	case isDotGit(name):
		return fmt.Errorf("tree entry name %q would be read as .git", name)
	}
	return nil
}

// isDotGit reports whether name reads as ".git" once ignorable Unicode
// code points (HFS+), case, trailing dots and spaces, alternate data
// streams and the 8.3 short name (NTFS) are taken into account.
func isDotGit(name string) bool {
	// Every such spelling starts with ".", "g" or an ignorable code point
	// (UTF-8 lead byte 0xe2 or 0xef); most names are ruled out here.
	if name == "" {
		return false
	}
	if c := name[0]; c != '.' && c != 'g' && c != 'G' && c != 0xe2 && c != 0xef {
		return false
	}
	n := strings.ToLower(stripIgnorable(name))
	if i := strings.IndexByte(n, ':'); i >= 0 {
		n = n[:i]
	}
	n = strings.TrimRight(n, ". ")
	return n == ".git" || n == "git~1"
}

// stripIgnorable drops the code points HFS+ ignores when comparing names.
func stripIgnorable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e,
			r >= 0x206a && r <= 0x206f, r == 0xfeff:
			return -1
		}
		return r
	}, s)
}

// checkMode accepts the five modes git writes into trees.
func checkMode(m filemode.FileMode) error {
	switch m {
	case filemode.Dir, filemode.Regular, filemode.Executable, filemode.Symlink, filemode.Submodule:
		return nil
	}
	return fmt.Errorf("file mode %o is not one git writes into trees (use 100644, 100755, 120000, 40000 or 160000)", uint32(m))
}
