package audit

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
)

// Shell text can hide a command in pieces: variables that hold parts of
// it, arrays joined by printf, ${IFS} for spaces, backslashes inside a
// word and empty quotes. shellExpandHits expands the simple forms of these
// on each line that uses them and reads the line again.

const (
	maxShellVars  = 200  // assignments remembered per text
	maxShellLines = 200  // lines expanded per text
	maxShellValue = 1024 // bytes of one value
)

var (
	simpleAssignRe = lazy(`^(?:export\s+|local\s+|declare\s+(?:-\w+\s+)?)?([A-Za-z_]\w*)=(.*)$`)
	decodeSub      = lazy(`^\$\(\s*(?:echo|printf)\s+(?:-n\s+)?["']?([A-Za-z0-9+/=]{8,})["']?\s*\|\s*base64\s+(?:-d|--decode|-D)\s*\)$`)
	whichSub       = lazy(`^\$\(\s*(?:which|command\s+-v|type\s+-p)\s+([\w.-]+)\s*\)$`)
	varUseRe       = lazy(`"?\$\{([A-Za-z_]\w*)(?:\[[@*]\]|:?[-?=+][^}\n]{0,40})?\}"?|\$([A-Za-z_]\w*)`)
	wordEscRe      = lazy(`([A-Za-z0-9])\\([A-Za-z0-9])`)
	emptyQuote     = lazy(`([A-Za-z0-9])(?:''|"")([A-Za-z0-9])`)
	runsText       = lazy(`\beval\b|\b(?:ba|z|da)?sh\s+-c\b|\$\(|\|`)
)

// shellExpandHits reads again, expanded, every command that builds a
// command from variables or hides its words with ${IFS}, backslashes or
// quotes. Shell code that parses (shell scripts and fenced blocks tagged
// as shell) is read by the parser, command by command (readShell); the
// rest of the text, and any span that does not parse as bash, is read
// line by line with the simple forms below, so that broken or partial
// code is still read rather than skipped.
func (s *scanner) shellExpandHits(u *unit, prior []hit) []hit {
	lines, covered := readShell(u, s.newKeywords)
	var out []hit
	add := func(start, end int, exp []byte) {
		_, lifted := s.payload(u, start, end, exp, "a command built from shell variables or escapes")
		for _, h := range lifted {
			if !foundOnLine(u.text, prior, h) {
				out = append(out, h)
			}
		}
	}
	for _, l := range lines {
		add(l.start, l.end, []byte(l.text))
	}
	if !bytes.Contains(u.text, []byte("$")) && !bytes.Contains(u.text, []byte("\\")) && !bytes.Contains(u.text, []byte("''")) {
		return out
	}
	vars := expandVars(u.text)
	n := len(lines)
	for off := 0; off < len(u.text) && n < maxShellLines; {
		end := lineEndAt(u.text, off)
		if !inRanges(covered, off) {
			if exp, ok := expandLine(u.text[off:end], vars); ok {
				n++
				add(off, end, exp)
			}
		}
		off = end + 1
	}
	return out
}

// newKeywords reports whether text holds a keyword of the rules that
// orig does not, so that a command that only changed in ways no rule
// reads is not scanned again.
func (s *scanner) newKeywords(orig, text string) bool {
	e := s.eng
	seen := map[int]bool{}
	e.m.scanPlain([]byte(orig), func(kw, _ int) { seen[kw] = true })
	found := false
	t := []byte(text)
	e.m.scanPlain(t, func(kw, end int) {
		if !found && kw < e.firstNeed && !seen[kw] && boundaryOK(t, end-int(e.m.lens[kw]), end, e.kwWord[kw]) {
			found = true
		}
	})
	return found
}

// expandVars collects the simple assignments of a text: literal words and
// quoted strings, arrays of them, a base64 text decoded by a command
// substitution, and the path `which` would print.
func expandVars(text []byte) map[string]string {
	vars := map[string]string{}
	for off := 0; off < len(text) && len(vars) < maxShellVars; {
		end := lineEndAt(text, off)
		line := text[off:end]
		off = end + 1
		if bytes.IndexByte(line, '=') < 0 {
			continue
		}
		for _, part := range strings.Split(string(line), ";") {
			m := simpleAssignRe.FindStringSubmatch(strings.TrimSpace(part))
			if m == nil || len(m[2]) > maxShellValue {
				continue
			}
			if v, ok := shellValue(strings.TrimSpace(m[2])); ok {
				vars[m[1]] = v
			}
		}
	}
	return vars
}

// shellValue evaluates the right side of an assignment when it is simple.
func shellValue(v string) (string, bool) {
	switch {
	case strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")"):
		return joinArray(v[1 : len(v)-1]), true
	case decodeSub.MatchString(v):
		b, err := base64.StdEncoding.DecodeString(decodeSub.FindStringSubmatch(v)[1])
		return string(b), err == nil && printable(b)
	case whichSub.MatchString(v):
		return whichSub.FindStringSubmatch(v)[1], true
	case strings.Contains(v, "$("), strings.Contains(v, "`"):
		return "", false
	}
	return stripQuotes(v), true
}

// joinArray joins the elements of an array literal as printf %s would.
func joinArray(body string) string {
	var b strings.Builder
	for _, f := range shellFields(body) {
		b.WriteString(f)
	}
	return b.String()
}

// shellFields splits words, keeping what quotes hold, quotes removed.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// stripQuotes removes one pair of matching quotes around v.
func stripQuotes(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// expandLine returns line with known variables, ${IFS}, backslashes inside
// words and empty quotes replaced, and whether anything changed in a way
// that hides a command: a line that only reads one variable is left alone.
func expandLine(line []byte, vars map[string]string) ([]byte, bool) {
	dollar := bytes.IndexByte(line, '$') >= 0 && (len(vars) > 0 || bytes.Contains(line, []byte("IFS")) || bytes.Contains(line, []byte("SHELL")) || bytes.Contains(line, []byte("printf")))
	escaped := bytes.IndexByte(line, '\\') >= 0 || bytes.Contains(line, []byte("''")) || bytes.Contains(line, []byte(`""`))
	if !dollar && !escaped {
		return nil, false
	}
	s := string(line)
	orig := s
	s = printfSub.ReplaceAllStringFunc(s, decodePrintf)
	if escaped {
		s = wordEscRe.ReplaceAllString(s, "$1$2")
		s = emptyQuote.ReplaceAllString(s, "$1$2")
		if !dollar || s != orig && hidesCommand(orig, s) && !strings.Contains(s, "$") {
			// Only a command word that the escapes hid is worth a second read.
			return []byte(s), s != orig && hidesCommand(orig, s)
		}
	}
	s = strings.NewReplacer("${IFS}", " ", "$IFS", " ", "${SHELL}", "sh", "$SHELL", "sh").Replace(s)
	used := 0
	s = varUseRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := varUseRe.FindStringSubmatch(m)
		v, ok := vars[sub[1]+sub[2]]
		if !ok {
			return m
		}
		used++
		return v
	})
	if s == orig || used == 1 && !strings.Contains(orig, "IFS") && !runsText.MatchString(orig) || used == 0 && !hidesCommand(orig, s) {
		return nil, false
	}
	return []byte(s), true
}

// hidesCommand reports whether after shows a command word that before,
// with its escapes and quotes, did not.
func hidesCommand(before, after string) bool {
	for _, w := range commandWords {
		if strings.Contains(after, w) && !strings.Contains(before, w) {
			return true
		}
	}
	return false
}

var commandWords = []string{"curl", "wget", "bash", "sh ", "| sh", "rm -", "nc ", "python", "perl", "eval", "base64", "chmod", "/dev/tcp"}

// printfSub matches a command substitution that prints octal or hex
// escapes, such as $(printf '\143\165\162\154') for "curl".
var printfSub = lazy(`\$\(\s*printf\s+['"]((?:\\[0-7]{3}|\\x[0-9a-fA-F]{2})+)['"]\s*\)`)

// decodePrintf returns the text a printfSub match prints.
func decodePrintf(m string) string {
	esc := printfSub.FindStringSubmatch(m)[1]
	var b strings.Builder
	for i := 0; i < len(esc); {
		if esc[i+1] == 'x' {
			v, _ := strconv.ParseUint(esc[i+2:i+4], 16, 8)
			b.WriteByte(byte(v))
			i += 4
			continue
		}
		v, _ := strconv.ParseUint(esc[i+1:i+4], 8, 8)
		b.WriteByte(byte(v))
		i += 4
	}
	return b.String()
}
