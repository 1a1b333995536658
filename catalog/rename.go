package catalog

import (
	"bytes"
	"errors"
	"slices"
)

// RenameSkill returns data, a SKILL.md, with the value of the first top-level name key of
// its frontmatter replaced by name, keeping every other byte (a line end of \r\n included).
// It does not parse the YAML: a name line that is not the effective key (inside a quoted or
// block value) is rewritten as text, so the caller parses the result again and refuses one
// that does not name the skill name.
func RenameSkill(data []byte, name string) ([]byte, error) {
	rest, ok := bytes.CutPrefix(data, []byte("---"))
	if !ok {
		return nil, errors.New("it has no frontmatter")
	}
	start := len(data) - len(rest)
	for off := start; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		line := bytes.TrimRight(data[off:off+end], "\r")
		if off > start && bytes.Equal(line, []byte("---")) {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("name:")); ok {
			lead := len(v) - len(bytes.TrimLeft(v, " \t"))
			at := off + len("name:") + lead
			space := []byte(nil)
			if lead == 0 {
				space = []byte(" ")
			}
			return slices.Concat(data[:at], space, []byte(name), data[off+len(line):]), nil
		}
		off += end + 1
	}
	return nil, errors.New("its frontmatter has no name: line")
}
