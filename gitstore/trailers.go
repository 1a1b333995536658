package gitstore

import (
	"strings"
)

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

// TrailerValue returns the value of the first trailer whose key equals
// key, ignoring case, or "".
func TrailerValue(ts []Trailer, key string) string {
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			return t.Value
		}
	}
	return ""
}

// findTrailerStart returns where the trailer block of s begins, or len(s)
// when s has none. It follows git's rules: the first paragraph is the
// subject; the block is the last paragraph, read from the end, and it
// counts when all its lines are trailers or continuation lines, or when
// one line is git-generated and at least a quarter are trailers.
func findTrailerStart(s string) int {
	ls := lines(s)
	starts := make([]int, len(ls))
	pos, title := 0, -1
	for i, line := range ls {
		starts[i] = pos
		pos += len(line)
		if title < 0 && line[0] != '#' && isBlankLine(line) {
			title = i
		}
	}
	if title < 0 {
		return len(s)
	}
	var c trailerCount
	for i := len(ls) - 1; i >= title; i-- {
		if done, ok := c.add(ls[i]); done {
			if ok {
				return starts[i] + len(ls[i])
			}
			return len(s)
		}
	}
	return len(s)
}

// trailerCount tallies the lines of a candidate trailer block, last first.
type trailerCount struct {
	started      bool
	recognized   bool
	trailers     int
	nonTrailers  int
	continuation int
}

// add counts one line. done is true at the blank line that closes the
// block; ok then says whether the block holds trailers.
func (c *trailerCount) add(line string) (done, ok bool) {
	switch {
	case line[0] == '#':
		c.nonTrailers += c.continuation
		c.continuation = 0
	case isBlankLine(line):
		if !c.started {
			return false, false
		}
		c.nonTrailers += c.continuation
		return true, c.recognized && c.trailers*3 >= c.nonTrailers ||
			c.trailers > 0 && c.nonTrailers == 0
	default:
		c.started = true
		c.addText(line)
	}
	return false, false
}

func (c *trailerCount) addText(line string) {
	for _, p := range gitGeneratedPrefixes {
		if strings.HasPrefix(line, p) {
			c.trailers++
			c.continuation = 0
			c.recognized = true
			return
		}
	}
	switch {
	case findSeparator(line) >= 1 && !isSpace(line[0]):
		c.trailers++
		c.continuation = 0
	case isSpace(line[0]):
		c.continuation++
	default:
		c.nonTrailers++
		c.nonTrailers += c.continuation
		c.continuation = 0
	}
}

// parseTrailerBlock turns the lines of a trailer block into trailers,
// joining continuation lines to the trailer above them and dropping
// lines that are not trailers.
func parseTrailerBlock(block string) []Trailer {
	var raw []string
	last := -1
	for _, line := range lines(block) {
		if last >= 0 && isSpace(line[0]) {
			raw[last] += line
			continue
		}
		raw = append(raw, line)
		last = -1
		if findSeparator(line) >= 1 {
			last = len(raw) - 1
		}
	}
	out := make([]Trailer, 0, len(raw)) // sized once: a batch keeps the trailers of thousands of commits
	for _, t := range raw {
		sep := findSeparator(t)
		if t[0] == '#' || sep < 1 {
			continue
		}
		key := strings.Trim(t[:sep], " \t\n\r\v\f")
		out = append(out, Trailer{Key: key, Value: unfold(t[sep+1:])})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// unfold turns each line break, with the blanks after it, into one space,
// and trims the result. A value of one line, the common case, is a part of v,
// not a copy: a batch keeps the trailers of thousands of commits.
func unfold(v string) string {
	const blanks = " \t\n\r\v\f"
	if t := strings.Trim(v, blanks); !strings.Contains(t, "\n") {
		return t
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\n' {
			b.WriteByte(v[i])
			continue
		}
		for i+1 < len(v) && isSpace(v[i+1]) {
			i++
		}
		b.WriteByte(' ')
	}
	return strings.Trim(b.String(), blanks)
}
