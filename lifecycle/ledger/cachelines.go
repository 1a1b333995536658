package ledger

import (
	"os"
	"strings"
)

// indexAfter is how many lines a cache finds by searching its text before it indexes them
// all: a command that acts on one candidate asks for a few steps, and a search of the text
// costs less than indexing a long history's lines; listing the whole trail asks for every
// step, and the index then pays for itself.
const indexAfter = 32

// cacheLines are the lines of a cache file, found by commit id in hex: by a search of the
// file's text at first, then through an index of them all. Lines added since the file was
// read are found first; when the file holds a commit twice, its last line counts.
type cacheLines struct {
	text  string
	index map[string]string
	added map[string]string
	asked int
}

// readCache reads the cache file; a missing, unreadable or oversized one holds no line.
func readCache(file string) *cacheLines {
	c := &cacheLines{added: map[string]string{}}
	if data, err := os.ReadFile(file); err == nil && len(data) <= maxCache {
		c.text = string(data)
	}
	return c
}

// get returns the line of commit id key.
func (c *cacheLines) get(key string) (string, bool) {
	if line, ok := c.added[key]; ok {
		return line, true
	}
	if c.asked++; c.index == nil && c.asked > indexAfter {
		c.index = indexLines(c.text)
	}
	if c.index != nil {
		line, ok := c.index[key]
		return line, ok
	}
	return findLine(c.text, key)
}

// add records a line written since the file was read.
func (c *cacheLines) add(key, line string) { c.added[key] = line }

// all returns every line, one per commit.
func (c *cacheLines) all() []string {
	if c.index == nil {
		c.index = indexLines(c.text)
	}
	out := make([]string, 0, len(c.index)+len(c.added))
	for key, line := range c.index {
		if _, again := c.added[key]; !again {
			out = append(out, line)
		}
	}
	for _, line := range c.added {
		out = append(out, line)
	}
	return out
}

// indexLines indexes the lines of text by the commit id that starts each.
func indexLines(text string) map[string]string {
	out := make(map[string]string, strings.Count(text, "\n"))
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) > hexLen && line[hexLen] == ' ' {
			out[line[:hexLen]] = line
		}
	}
	return out
}

// findLine finds the last line of text that starts with commit id key.
func findLine(text, key string) (string, bool) {
	for end := len(text); ; {
		i := strings.LastIndex(text[:end], key+" ")
		if i < 0 {
			return "", false
		}
		if i == 0 || text[i-1] == '\n' {
			line, _, _ := strings.Cut(text[i:], "\n")
			return line, true
		}
		end = i
	}
}
