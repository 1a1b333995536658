package catalog

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Truncate returns text cut to at most limit characters (runes), and the number of runes in
// text. When a line ends within the last fifth of the limit, the cut is made after that line
// end, so that the text does not stop mid-line. A limit of 0 or less leaves text whole.
func Truncate(text string, limit int) (kept string, total int, cut bool) {
	total = utf8.RuneCountInString(text)
	if limit <= 0 || total <= limit {
		return text, total, false
	}
	end := byteOffset(text, limit)
	if nl := strings.LastIndexByte(text[:end], '\n'); nl >= 0 {
		if utf8.RuneCountInString(text[:nl+1]) >= limit-limit/5 {
			end = nl + 1
		}
	}
	return text[:end], total, true
}

// byteOffset returns the byte offset of the n-th rune of s (n < the rune count of s).
func byteOffset(s string, n int) int {
	i := 0
	for off := range s {
		if i == n {
			return off
		}
		i++
	}
	return len(s)
}

// TruncationNotice is the line that ends a cut SKILL.md: how much of it is shown, and how an
// agent reads the whole skill.
func TruncationNotice(name string, shown, total int) string {
	return fmt.Sprintf("[truncated: showing %d of %d characters; run \"skillgit read %s\" for the whole skill]", shown, total, name)
}

// TruncateSkill cuts the SKILL.md content of skill name to at most limit characters with
// Truncate and, when it cuts, appends the TruncationNotice on a line of its own. It returns
// the content to show, the character count of the whole content, and whether it cut.
func TruncateSkill(name string, content []byte, limit int) (out []byte, total int, cut bool) {
	kept, total, cut := Truncate(string(content), limit)
	if !cut {
		return content, total, false
	}
	var b strings.Builder
	b.WriteString(kept)
	if !strings.HasSuffix(kept, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(TruncationNotice(name, utf8.RuneCountInString(kept), total))
	b.WriteByte('\n')
	return []byte(b.String()), total, true
}
