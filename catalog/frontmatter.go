package catalog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// delimiter is the line that opens and closes the frontmatter block.
const delimiter = "---"

// yamlFormat splits a SKILL.md at its "---" lines and hands the block to
// yaml.v3, so that a single YAML library decides every value.
var yamlFormat = frontmatter.NewFormat(delimiter, delimiter, unmarshalYAML)

// unmarshalYAML decodes the frontmatter block into a *yaml.Node. The block
// is decoded behind one empty line standing in for the opening "---", so
// that node lines and most error lines are file lines. A panic inside the
// YAML library becomes an error: hostile input must never crash a listing.
func unmarshalYAML(data []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: parser failed: %v", r)
		}
	}()
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, '\n'), data...)
	return yaml.Unmarshal(buf, v)
}

// openingLen returns the length of the first line of data, newline
// included, when that line is the opening "---" (trailing blanks allowed),
// and 0 otherwise. Like the reference validator, nothing may come before it.
func openingLen(data []byte) int {
	line, _, found := bytes.Cut(data, []byte{'\n'})
	if string(bytes.TrimRight(line, " \t\r")) != delimiter {
		return 0
	}
	if !found {
		return len(line)
	}
	return len(line) + 1
}

// isDelimiter reports whether line closes the frontmatter. It trims the
// same white space as the frontmatter library, so both agree on the block.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimSpace(line)) == delimiter
}

// closeScanner finds the closing delimiter in data that may still grow,
// examining each line once.
type closeScanner struct {
	off int // offset of the first line not yet examined
}

// scan examines the complete lines of data from s.off on, and the final
// unterminated line too when atEOF. It returns the offset just past the
// closing line, or 0 when that line has not been seen yet.
func (s *closeScanner) scan(data []byte, atEOF bool) int {
	for s.off < len(data) {
		i := bytes.IndexByte(data[s.off:], '\n')
		if i < 0 && !atEOF {
			return 0
		}
		end := len(data)
		if i >= 0 {
			end = s.off + i + 1
		}
		closing := isDelimiter(data[s.off:end])
		s.off = end
		if closing {
			return end
		}
	}
	return 0
}

// findClose returns the offset just past the closing delimiter of a block
// opened by the first open bytes of data, or 0 when there is none.
func findClose(data []byte, open int) int {
	s := closeScanner{off: open}
	return s.scan(data, true)
}

// bom is the UTF-8 byte order mark, which some editors put at the start of a file.
var bom = []byte{0xEF, 0xBB, 0xBF}

// readFrontmatter reads r up to the end of the frontmatter's closing line,
// perhaps a little beyond, into buf and returns what it read. It stops
// early when the first line cannot open a block, and it never reads more
// than MaxSkillFileSize+1 bytes.
func readFrontmatter(r io.Reader, buf []byte) ([]byte, error) {
	data := buf[:0]
	var s closeScanner
	for stalls := 0; stalls < 100; {
		if len(data) == cap(data) {
			data = grow(data)
		}
		n, err := r.Read(data[len(data):min(cap(data), MaxSkillFileSize+1)])
		data = data[:len(data)+n]
		atEOF := err == io.EOF
		if err != nil && !atEOF {
			return data, err
		}
		if atEOF || len(data) > MaxSkillFileSize || frontmatterRead(&s, data) {
			return data, nil
		}
		if n == 0 {
			stalls++
		}
	}
	return data, io.ErrNoProgress
}

// frontmatterRead reports whether data, a growing prefix of a file, holds
// enough to stop reading: the whole block, or a first line that cannot
// open one.
func frontmatterRead(s *closeScanner, data []byte) bool {
	if s.off == 0 {
		skip := 0
		if bytes.HasPrefix(data, bom) {
			skip = len(bom)
		}
		rest := data[skip:]
		if bytes.IndexByte(rest, '\n') < 0 {
			return !couldOpen(data)
		}
		open := openingLen(rest)
		if open == 0 {
			return true
		}
		s.off = skip + open
	}
	return s.scan(data, false) > 0
}

// couldOpen reports whether data, a file prefix without a newline, may
// still turn out to start with the opening line.
func couldOpen(data []byte) bool {
	if len(data) < len(bom) && bytes.HasPrefix(bom, data) {
		return true
	}
	data = bytes.TrimPrefix(data, bom)
	if len(data) <= len(delimiter) {
		return strings.HasPrefix(delimiter, string(data))
	}
	return string(data[:len(delimiter)]) == delimiter && len(bytes.TrimRight(data[len(delimiter):], " \t\r")) == 0
}

// grow returns data with room for more bytes, doubling its capacity from 4 KiB.
func grow(data []byte) []byte {
	c := max(2*cap(data), 4096)
	bigger := make([]byte, len(data), c)
	copy(bigger, data)
	return bigger
}

// blockReader feeds a frontmatter block to the frontmatter library. The
// library wraps its input in a bufio.Reader unless it already is one of at
// least the default size, so reusing these spares a 4 KiB buffer per file.
type blockReader struct {
	src bytes.Reader
	buf *bufio.Reader
}

var blockReaders = sync.Pool{New: func() any {
	br := new(blockReader)
	br.buf = bufio.NewReader(&br.src)
	return br
}}

// decodeBlock decodes block, which spans the opening line through the
// closing line, into the frontmatter's YAML document node.
func decodeBlock(block []byte) (*yaml.Node, error) {
	br := blockReaders.Get().(*blockReader)
	defer blockReaders.Put(br)
	br.src.Reset(block)
	br.buf.Reset(&br.src)
	var doc yaml.Node
	rest, err := frontmatter.MustParse(br.buf, &doc, yamlFormat)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, errors.New("frontmatter block was split at an unexpected line")
	}
	return &doc, nil
}

// yamlLine matches the position yaml.v3 puts in front of an error message.
var yamlLine = lazyregexp.New(`^yaml: line (\d+): `)

// parserMessages are the yaml.v3 errors raised by its parser rather than its
// scanner. yaml.v3 reports their line 0-based (pointing at the start of the
// enclosing node), whereas scanner errors carry a 1-based line.
var parserMessages = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// yamlErrorLine returns the file line of a yaml.v3 error (0 when the error
// has none) and the message without its "yaml: line N: " prefix.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	m := yamlLine().FindStringSubmatch(msg)
	if m == nil {
		return 0, strings.TrimPrefix(msg, "yaml: ")
	}
	line, convErr := strconv.Atoi(m[1])
	msg = msg[len(m[0]):]
	if convErr != nil {
		return 0, msg
	}
	for _, p := range parserMessages {
		if msg == p {
			return line + 1, msg
		}
	}
	return line, msg
}
