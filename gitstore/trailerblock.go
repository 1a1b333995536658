package gitstore

import "strings"

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
	var out []Trailer
	for _, t := range raw {
		sep := findSeparator(t)
		if t[0] == '#' || sep < 1 {
			continue
		}
		key := strings.Trim(t[:sep], " \t\n\r\v\f")
		out = append(out, Trailer{Key: key, Value: unfold(t[sep+1:])})
	}
	return out
}

// unfold turns each line break, with the blanks after it, into one space,
// and trims the result.
func unfold(v string) string {
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
	return strings.Trim(b.String(), " \t\n\r\v\f")
}
