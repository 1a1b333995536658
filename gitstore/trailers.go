package gitstore

import "strings"

// Trailer is one "Key: value" line of a commit message's trailer block.
type Trailer struct {
	Key, Value string
}

// gitGeneratedPrefixes start lines that git itself adds; one of them lets
// a final paragraph that is only one quarter trailers count as trailers.
var gitGeneratedPrefixes = []string{"Signed-off-by: ", "(cherry picked from commit "}

// ParseTrailers returns the trailers of a commit message as
// `git interpret-trailers --parse` reads them: the last paragraph, if it
// is not the subject and consists of trailers (or of at least 25 %
// trailers and one line git generates), with continuation lines unfolded
// into the value. Text after a "---" divider line and trailing comment
// lines are ignored.
func ParseTrailers(message string) []Trailer {
	end := findPatchStart(message)
	end -= ignoredTail(message[:end])
	start := findTrailerStart(message[:end])
	return parseTrailerBlock(message[start:end])
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lines splits s into lines that keep their "\n"; only the last one may
// lack it, and none is empty.
func lines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func isBlankLine(line string) bool {
	return strings.TrimLeft(line, " \t\n\r\v\f") == ""
}

// findPatchStart returns where a "---" divider line begins, or len(s).
func findPatchStart(s string) int {
	pos := 0
	for _, line := range lines(s) {
		if strings.HasPrefix(line, "---") && len(line) > 3 && isSpace(line[3]) {
			return pos
		}
		pos += len(line)
	}
	return len(s)
}

// ignoredTail returns the length of the trailing comment and blank lines
// (and an old-style "Conflicts:" block) that git leaves out of trailers.
func ignoredTail(s string) int {
	boc, inConflicts, pos := -1, false, 0
	for _, line := range lines(s) {
		switch {
		case line[0] == '#' || line == "\n":
			if boc < 0 {
				boc = pos
			}
		case line == "Conflicts:\n":
			inConflicts = true
			if boc < 0 {
				boc = pos
			}
		case inConflicts && line[0] == '\t':
		default:
			boc, inConflicts = -1, false
		}
		pos += len(line)
	}
	if boc < 0 {
		return 0
	}
	return len(s) - boc
}

// findSeparator returns the index of the ":" ending a trailer's key (a
// run of letters, digits and hyphens, optionally followed by blanks), or -1.
func findSeparator(line string) int {
	blank := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ':':
			return i
		case !blank && (isAlnum(c) || c == '-'):
		case i != 0 && (c == ' ' || c == '\t'):
			blank = true
		default:
			return -1
		}
	}
	return -1
}

// SplitMessage splits a commit message into its subject (the first paragraph, joined into one
// line), its body (what lies between the subject and the trailer block, trimmed) and its
// trailers, as ParseTrailers reads them.
func SplitMessage(message string) (subject, body string, trailers []Trailer) {
	end := findPatchStart(message)
	end -= ignoredTail(message[:end])
	start := findTrailerStart(message[:end])
	head := strings.ReplaceAll(message[:start], "\r\n", "\n")
	subject, body, _ = strings.Cut(strings.TrimLeft(head, "\n"), "\n\n")
	return oneLine(subject), strings.Trim(body, "\n"), parseTrailerBlock(message[start:end])
}
