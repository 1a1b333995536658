package audit

import (
	"bytes"
	"path"
	"strings"
)

// Build files keep shell code in recipes: the indented lines under a
// target. Each recipe is rebuilt as the shell code its tool hands to the
// shell, line for line, so that a finding lands on the recipe's line.

const maxShellSpans = 256 // spans of shell code read per unit

// recipeTool is how a build tool writes its recipes.
type recipeTool struct {
	header func(line []byte) bool // a line that opens a recipe
	body   func(line []byte) bool // a line of a recipe
	shell  func(line []byte) []byte
}

var (
	makeTool = recipeTool{header: makeHeader, body: func(l []byte) bool { return len(l) > 0 && l[0] == '\t' }, shell: makeShell}
	justTool = recipeTool{header: justHeader, body: func(l []byte) bool { return len(l) > 0 && (l[0] == '\t' || l[0] == ' ') }, shell: justShell}
)

// containerSpans returns the shell spans of a file that keeps shell code
// inside another format, and whether u is such a file.
func containerSpans(u *unit) ([]shellSpan, bool) {
	base := strings.ToLower(path.Base(u.file))
	switch {
	case base == "makefile" || base == "gnumakefile" || extOf(base) == "mk":
		return recipeSpans(u.text, makeTool), true
	case base == "justfile" || base == ".justfile" || extOf(base) == "just":
		return recipeSpans(u.text, justTool), true
	case base == "package.json":
		return packageScriptSpans(u.text), true
	case extOf(base) == "yml" || extOf(base) == "yaml":
		return yamlRunSpans(u.text), true
	}
	return nil, false
}

// recipeSpans returns each recipe of text as a span of its own: a recipe
// that does not parse falls back to the line reader alone.
func recipeSpans(text []byte, tool recipeTool) []shellSpan {
	var out []shellSpan
	var cur *shellSpan
	inRule, cont := false, false
	flush := func() {
		if cur != nil && len(out) < maxShellSpans {
			out = append(out, *cur)
		}
		cur = nil
	}
	for off := 0; off < len(text); {
		end := lineEndAt(text, off)
		line := bytes.TrimSuffix(text[off:end], []byte("\r"))
		trimmed := bytes.TrimSpace(line)
		switch {
		case cont || inRule && tool.body(line) && len(trimmed) > 0:
			if cur == nil {
				cur = &shellSpan{start: off}
			}
			cur.src = append(append(cur.src, tool.shell(line)...), '\n')
			cur.lineAt = append(cur.lineAt, off)
			cur.covers = append(cur.covers, [2]int{off, end})
			cont = bytes.HasSuffix(line, []byte("\\")) && !bytes.HasSuffix(line, []byte("\\\\"))
		case len(trimmed) == 0 || trimmed[0] == '#':
		default:
			flush()
			inRule = tool.header(line)
		}
		off = end + 1
	}
	flush()
	return out
}

// makeHeader reports whether line is a rule, `target: prerequisites`,
// rather than an assignment or a directive.
func makeHeader(line []byte) bool {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' {
		return false
	}
	c := bytes.IndexByte(line, ':')
	if c < 0 || c+1 < len(line) && line[c+1] == '=' {
		return false
	}
	return bytes.IndexByte(line[:c], '=') < 0
}

// justHeader reports whether line opens a just recipe, `name args:`.
func justHeader(line []byte) bool {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || bytes.Contains(line, []byte(":=")) {
		return false
	}
	return bytes.IndexByte(line, ':') > 0
}

// makeShell returns a recipe line as make hands it to the shell: the
// @, - and + prefixes dropped, $$ a literal $, and a make variable $(NAME)
// or ${NAME} read as the shell variable ${NAME}, whose value is unknown.
func makeShell(line []byte) []byte {
	line = recipePrefix(line, "@-+")
	out := make([]byte, 0, len(line))
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '$' || i+1 >= len(line) {
			out = append(out, c)
			continue
		}
		switch next := line[i+1]; {
		case next == '$':
			out = append(out, '$')
			i++
		case next == '(' || next == '{':
			n := wordLen(line[i+2:])
			closing := byte(')')
			if next == '{' {
				closing = '}'
			}
			if n == 0 || i+2+n >= len(line) || line[i+2+n] != closing {
				out = append(out, c)
				continue
			}
			out = append(append(append(out, "${"...), line[i+2:i+2+n]...), '}')
			i += 2 + n
		case strings.IndexByte("<^%+|", next) >= 0:
			out = append(out, "$@"...)
			i++
		default:
			out = append(out, c)
		}
	}
	return out
}

// justShell returns a recipe line as just hands it to the shell: the @
// and - prefixes dropped and each {{expression}} an unknown variable.
func justShell(line []byte) []byte {
	return opaqueExprs(recipePrefix(line, "@-"), []byte("{{"), []byte("}}"))
}

// recipePrefix drops the indentation of a recipe line and the prefix
// characters that tell the tool how to run it.
func recipePrefix(line []byte, prefixes string) []byte {
	line = bytes.TrimLeft(line, " \t")
	for len(line) > 0 && strings.IndexByte(prefixes, line[0]) >= 0 {
		line = bytes.TrimLeft(line[1:], " \t")
	}
	return line
}

// opaqueExprs replaces each open...shut expression of a template in
// line by a shell variable whose value is unknown, named after the last
// word of the expression: `${{ secrets.TOKEN }}` reads as `${TOKEN}`, so
// that a rule still sees what the value is.
func opaqueExprs(line, open, shut []byte) []byte {
	if !bytes.Contains(line, open) {
		return line
	}
	var out []byte
	for {
		i := bytes.Index(line, open)
		j := -1
		if i >= 0 {
			j = bytes.Index(line[i+len(open):], shut)
		}
		if j < 0 {
			return append(out, line...)
		}
		expr := line[i+len(open) : i+len(open)+j]
		out = append(append(append(append(out, line[:i]...), "${"...), exprName(expr)...), '}')
		line = line[i+len(open)+j+len(shut):]
	}
}

// exprName returns the last word of a template expression as a shell
// variable name.
func exprName(expr []byte) []byte {
	expr = bytes.TrimRight(expr, " \t")
	n := 0
	for n < len(expr) && isWordByte(expr[len(expr)-1-n]) {
		n++
	}
	name := expr[len(expr)-n:]
	if n == 0 || name[0] >= '0' && name[0] <= '9' {
		return append([]byte("_"), name...)
	}
	return name
}

// wordLen returns the length of the run of word bytes that starts b.
func wordLen(b []byte) int {
	n := 0
	for n < len(b) && isWordByte(b[n]) {
		n++
	}
	return n
}
