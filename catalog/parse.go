package catalog

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// Parse parses data, the content of a SKILL.md found in folder dir, whose
// base name is the name the skill must have. It returns the skill, or nil
// when the skill cannot load in mode, and every problem found, sorted by
// line. Data over MaxSkillFileSize is reported by its size and not parsed.
func Parse(dir string, data []byte, mode Mode) (*Skill, []Problem) {
	c := newChecker(dir, mode)
	if len(data) > MaxSkillFileSize {
		c.tooBig(int64(len(data)))
		return c.result(nil)
	}
	return c.result(c.parse(data, true, nil))
}

// ParseFrontmatter parses the SKILL.md that r streams, like Parse, but reads
// only up to the end of the frontmatter block (in chunks, so perhaps a
// little more) and gives up after MaxSkillFileSize bytes. The skill's Body
// is left empty and the body's encoding is not checked.
func ParseFrontmatter(dir string, r io.Reader, mode Mode) (*Skill, []Problem) {
	c := newChecker(dir, mode)
	data, err := readFrontmatter(r, nil)
	if err != nil {
		c.unreadable(err)
		return c.result(nil)
	}
	return c.result(c.parse(data, false, nil))
}

// parse checks data, the whole file when whole is true and otherwise a
// prefix of it that holds at least the frontmatter block; scratch, when not
// nil, is reused memory for plain frontmatter.
func (c *checker) parse(data []byte, whole bool, scratch *plainScratch) *Skill {
	if bytes.HasPrefix(data, bom) {
		c.report(soft, 1, "file starts with a UTF-8 byte order mark; save it as UTF-8 without one")
		data = data[len(bom):]
	}
	open := openingLen(data)
	if open == 0 {
		c.report(fatal, 1, "file must start with a --- line that opens the YAML frontmatter; add ---, name and description lines, then ---")
		return nil
	}
	end := findClose(data, open)
	if end == 0 {
		c.report(fatal, 1, "frontmatter opened on line 1 is never closed; add a --- line after its last key")
		return nil
	}
	if line := invalidUTF8Line(data[:end]); line > 0 {
		c.report(fatal, line, "frontmatter is not valid UTF-8; save the file as UTF-8")
		return nil
	}
	if whole {
		if line := invalidUTF8Line(data); line > 0 {
			c.report(soft, line, "body is not valid UTF-8; save the file as UTF-8")
		}
	}
	s := c.decode(data[:end], scratch)
	if s != nil && whole {
		s.Body = string(data[end:])
	}
	return s
}

// tooBig reports a SKILL.md over the size limit.
func (c *checker) tooBig(size int64) {
	c.report(fatal, 0, "file is %d bytes, over the %d-byte (1 MiB) limit; move detail into files under references/", size, MaxSkillFileSize)
}

// invalidUTF8Line returns the 1-based line of the first byte of data that is
// not valid UTF-8, or 0 when data is valid.
func invalidUTF8Line(data []byte) int {
	if utf8.Valid(data) {
		return 0
	}
	i := 0
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return bytes.Count(data[:i], []byte{'\n'}) + 1
}
