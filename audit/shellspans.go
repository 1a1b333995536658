package audit

import (
	"bytes"
)

// shellSpan is a stretch of a unit that holds shell code: src is what the
// parser reads (the unit's bytes, or a copy with console prompts and
// output blanked, offsets kept) and covers are the ranges of the unit the
// parsed reading replaces the line-based one on. When src was rebuilt from
// the unit (a Makefile recipe, a JSON string, a YAML value), lineAt holds
// the unit offset of the line each line of src came from.
type shellSpan struct {
	start  int
	src    []byte
	covers [][2]int
	lineAt []int
}

var (
	shellExts   = set("sh", "bash", "zsh", "ksh", "dash", "command")
	shellFences = set("sh", "bash", "shell", "zsh", "ksh", "console", "shell-session", "shellsession")
	shebangRe   = lazy(`^#!\s*\S*(?:/|env\s+(?:-\S+\s+)*)(?:ba|z|k|da)?sh\b`)
)

// shellSpans returns the spans of u that hold shell code: the whole of a
// shell script, the fenced blocks of prose tagged as shell, Makefile and
// justfile recipes, package.json scripts and YAML run: values. Untagged
// code is read line by line (shellExpandHits).
func shellSpans(u *unit) []shellSpan {
	if u.depth > 0 {
		return nil
	}
	if sp, ok := containerSpans(u); ok {
		return sp
	}
	switch {
	case u.kind&kindScript != 0:
		if shellExts[extOf(u.file)] || shebangRe.Match(u.text[:lineEndAt(u.text, 0)]) {
			return []shellSpan{{start: 0, src: u.text, covers: [][2]int{{0, len(u.text)}}}}
		}
	case u.kind&kindProse != 0:
		return shellFenceSpans(u.text)
	}
	return nil
}

// shellFenceSpans returns the bodies of the fenced blocks tagged as shell.
func shellFenceSpans(text []byte) []shellSpan {
	var out []shellSpan
	for _, f := range fenceBodies(text) {
		if !shellTag(f.tag) {
			continue
		}
		body := text[f.start:f.end]
		if bytes.EqualFold(f.tag, []byte("console")) || len(f.tag) > 5 && bytes.EqualFold(f.tag[:5], []byte("shell")) {
			out = append(out, consoleSpan(f.start, body))
			continue
		}
		out = append(out, shellSpan{start: f.start, src: body, covers: [][2]int{{f.start, f.end}}})
	}
	return out
}

// fenceBody is the body of a fenced block of prose and the first word of its info string.
type fenceBody struct {
	tag        []byte
	start, end int
}

// fenceBodies returns the bodies of the fenced blocks of text.
func fenceBodies(text []byte) []fenceBody {
	if !bytes.Contains(text, []byte("```")) && !bytes.Contains(text, []byte("~~~")) {
		return nil
	}
	var out []fenceBody
	for _, f := range fences(text) {
		open := lineEndAt(text, f[0])
		tag := bytes.TrimSpace(bytes.TrimLeft(bytes.TrimSpace(text[f[0]:open]), "`~"))
		if i := bytes.IndexAny(tag, " \t{,"); i >= 0 {
			tag = tag[:i]
		}
		if open+1 > f[1] {
			continue
		}
		start, end := open+1, lineStartAt(text, f[1])
		if f[1] == len(text) && !fenceLine(text[end:]) {
			end = len(text)
		}
		if start <= end {
			out = append(out, fenceBody{tag: tag, start: start, end: end})
		}
	}
	return out
}

// shellTag reports whether a fence's info string names shell code.
func shellTag(tag []byte) bool {
	if len(tag) == 0 || len(tag) > 16 {
		return false
	}
	for t := range shellFences {
		if bytes.EqualFold(tag, []byte(t)) {
			return true
		}
	}
	return false
}

// fenceLine reports whether line opens or closes a fence.
func fenceLine(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	return bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
}

// consoleSpan keeps the commands of a console session, the lines after a
// `$ ` prompt, and blanks the prompts and the output between them.
func consoleSpan(start int, body []byte) shellSpan {
	src := bytes.Clone(body)
	sp := shellSpan{start: start, src: src}
	for off := 0; off < len(src); {
		end := lineEndAt(src, off)
		line := src[off:end]
		if p := bytes.Index(line, []byte("$ ")); p >= 0 && len(bytes.TrimSpace(line[:p])) == 0 {
			for i := range p + 2 {
				line[i] = ' '
			}
			sp.covers = append(sp.covers, [2]int{start + off, start + end})
		} else {
			for i := range line {
				line[i] = ' '
			}
		}
		off = end + 1
	}
	return sp
}

// readShell parses the shell spans of u worth expanding and returns the
// commands that hid something, written out, and the ranges of u read so.
// news tells whether a written-out command shows a keyword of the rules
// that the command as written does not: only then is it worth a scan.
func readShell(u *unit, news func(orig, text string) bool) ([]shellLine, [][2]int) {
	spans := shellSpans(u)
	if len(spans) == 0 {
		return nil, nil
	}
	var r *shellReader
	var covered [][2]int
	for _, sp := range spans {
		if !worthParsing(sp.src, u.text) && (r == nil || len(r.funcs) == 0) {
			continue
		}
		if r == nil {
			r = newShellReader()
			r.news, r.unit = news, u.text
		}
		r.lineAt, r.srcNL = sp.lineAt, nil
		if sp.lineAt != nil {
			r.srcNL = newlines(sp.src)
		}
		if r.read(sp.src, sp.start) {
			covered = append(covered, sp.covers...)
		}
	}
	if r == nil {
		return nil, nil
	}
	return r.lines, covered
}

// worthParsing reports whether shell code holds anything expansion could
// change in a way that hides a word: a variable the code of unit assigns
// (or $IFS, $SHELL), a parameter expansion with an operator, a command
// substitution, an ANSI-C string, a quote or backslash inside a word, or
// a function. Everything else reads the same expanded as written.
func worthParsing(src, unit []byte) bool {
	if bytes.IndexByte(src, '`') >= 0 || bytes.Contains(src, []byte("()")) || bytes.Contains(src, []byte("function")) {
		return true
	}
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote == '\'' && c != '\'':
		case c == '\\':
			if i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r' && (quote == 0 || src[i+1] == '$' || src[i+1] == '`') {
				return true
			}
			i++
		case c == '$':
			if dollarHides(src[i+1:], unit) {
				return true
			}
		case quote == 0 && (c == '\'' || c == '"'):
			if i > 0 && isWordByte(src[i-1]) {
				return true
			}
			quote = c
		case c == quote:
			if i+1 < len(src) && isWordByte(src[i+1]) {
				return true
			}
			quote = 0
		}
	}
	return false
}

// dollarHides reports whether the expansion after a $ may hide a word.
func dollarHides(rest, unit []byte) bool {
	if len(rest) == 0 {
		return false
	}
	braced := rest[0] == '{'
	if braced {
		rest = rest[1:]
	} else if !isNameStart(rest) {
		return rest[0] == '(' || rest[0] == '\''
	}
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	name := rest[:n]
	if braced && (n == 0 || n >= len(rest) || rest[n] != '}') {
		return true
	}
	switch string(name) {
	case "IFS", "SHELL":
		return true
	}
	return n > 0 && assignedIn(unit, name)
}

// assignedIn reports whether unit holds name= or name+=, or a for loop
// over name, which assigns it too.
func assignedIn(unit, name []byte) bool {
	for off := 0; off < len(unit); {
		i := bytes.Index(unit[off:], name)
		if i < 0 {
			return false
		}
		j := off + i + len(name)
		if j < len(unit) && (unit[j] == '=' || unit[j] == '+' && j+1 < len(unit) && unit[j+1] == '=') || loopsOver(unit, off+i, j) {
			return true
		}
		off = j
	}
	return false
}

// loopsOver reports whether the name at unit[i:j] follows `for `.
func loopsOver(unit []byte, i, j int) bool {
	if j < len(unit) && isWordByte(unit[j]) {
		return false
	}
	before := bytes.TrimRight(unit[:i], " \t")
	return len(before) < i && bytes.HasSuffix(before, []byte("for")) && (len(before) == 3 || !isWordByte(before[len(before)-4]))
}

// isNameStart reports whether b starts with a byte a shell name may
// start with.
func isNameStart(b []byte) bool {
	c := b[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// newlines returns the offsets of the newlines of src.
func newlines(src []byte) []int {
	var out []int
	for i, c := range src {
		if c == '\n' {
			out = append(out, i)
		}
	}
	return out
}
