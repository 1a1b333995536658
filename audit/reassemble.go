package audit

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A string rebuilt from pieces hides a command from a reader and from
// the pattern rules: ”.join(['cu', 'rl ...']), 'a' + 'b' + 'c',
// '...'[::-1], chr(99) + chr(117), String.fromCharCode(...), $a$b$c.
// rebuiltStrings writes such strings out and returns, for each, its
// line with the string in place, so the rules read what would run.

const (
	lit          = `(?:'[^'\n]*'|"[^"\n]*")`
	litList      = `((?:\s*` + lit + `\s*,?)+)`
	viaRebuilt   = "a string rebuilt from pieces"
	maxRebuilt   = 64   // rebuilt strings re-scanned per text
	maxGateLines = 1024 // lines one kind of rebuilt string is looked for on
	maxContext   = 512  // bytes of a line read around a rebuilt string
)

var (
	litRe      = lazy(lit)
	joinListRe = lazy(`(?:''|"")\s*\.join\(\s*\[` + litList + `\]\s*\)|\[` + litList + `\]\s*\.join\(\s*(?:''|"")\s*\)`)
	joinVarRe  = lazy(`(?:''|"")\s*\.join\(\s*([A-Za-z_]\w*)\s*\)`)
	concatRe   = lazy(lit + `(?:\s*\+\s*` + lit + `){2,}`)
	sliceRe    = lazy(`(` + lit + `)\[(-?\d*):(-?\d*):(-?\d+)\]`)
	reverseRe  = lazy(`(` + lit + `)\.split\(\s*(?:''|"")\s*\)\.reverse\(\)\.join\(\s*(?:''|"")\s*\)`)
	revPipeRe  = lazy(`(` + lit + `)(\s*\|\s*rev)\b`)
	chrsRe     = lazy(`chr\(\s*\d+\s*\)(?:\s*\+\s*chr\(\s*\d+\s*\))+`)
	codesRe    = lazy(`(?i)(?:string\.)?fromcharcode\(\s*([\d\s,]+)\)|chr\(\s*\w+\s*\)\s*for\s+\w+\s+in\s+\[([\d\s,]+)\]`)
	zipRe      = lazy(`zip\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*\)`)
	formatRe   = lazy(`(` + lit + `)\.format\(` + litList + `\)`)
	shellVarRe = lazy(`(?:\$\{?[A-Za-z_]\w*\}?){2,}`)
	printfRe   = lazy(`printf\s+(?:'%s'|"%s")((?:\s+` + lit + `)+)`)
	jsonEscRe  = lazy(`\\u00(?:26|7[cC]|3[bB]|60|24)`)
	digitsRe   = lazy(`\d+`)
)

// piece is a rebuilt string: the bytes of the construct and its value.
type piece struct {
	start, end int
	value      string
}

// rebuiltStrings returns the lines of text that hold a string rebuilt
// from pieces, with the string written out, as blobs over the construct.
func rebuiltStrings(text []byte) []blob {
	gates := findGates(text)
	if len(gates) == 0 {
		return nil
	}
	var ps []piece
	for _, find := range pieceFinders {
		if len(ps) >= maxRebuilt {
			break
		}
		ps = append(ps, find(text, gates)...)
	}
	var out []blob
	for _, p := range ps[:min(len(ps), maxRebuilt)] {
		ls := max(lineStartAt(text, p.start), p.start-maxContext)
		le := min(matchLineEnd(text, p.start, p.end), p.end+maxContext)
		line := string(text[ls:p.start]) + p.value + string(text[p.end:le])
		out = append(out, blob{start: p.start, end: p.end, encoding: viaRebuilt, data: []byte(line)})
	}
	return out
}

var pieceFinders = []func([]byte, gateHits) []piece{
	joinedLists, joinedVars, concatenated, sliced, reversed, reversedPipe,
	charCodes, zipped, formatted, shellVars, printfParts, jsonEscapes,
}

// matches runs re around each offset of gate in text, once per line, and
// calls fn with each match's submatch indexes into text.
func matches(text []byte, gates gateHits, gate string, re *lazyRegexp, fn func(m []int) (string, bool)) []piece {
	var out []piece
	done := -1
	for _, p := range gates[gate] {
		if len(out) >= maxRebuilt {
			break
		}
		ls, le := lineStartAt(text, p), lineEndAt(text, p)
		if ls <= done {
			continue
		}
		done = ls
		ls, le = max(ls, p-maxContext), min(le, p+maxContext)
		out = append(out, lineMatches(text, ls, le, re.get(), fn)...)
	}
	return out
}

func lineMatches(text []byte, ls, le int, re *regexp.Regexp, fn func(m []int) (string, bool)) []piece {
	var out []piece
	for _, m := range re.FindAllSubmatchIndex(text[ls:le], maxRebuilt) {
		for k := range m {
			if m[k] >= 0 {
				m[k] += ls
			}
		}
		if v, ok := fn(m); ok {
			out = append(out, piece{m[0], m[1], v})
		}
	}
	return out
}

// literals joins the string literals of a list.
func literals(b []byte) string {
	var s strings.Builder
	for _, l := range litRe.FindAll(b, -1) {
		s.Write(l[1 : len(l)-1])
	}
	return s.String()
}

func group(text []byte, m []int, g int) []byte {
	if m[2*g] < 0 {
		return nil
	}
	return text[m[2*g]:m[2*g+1]]
}

func joinedLists(text []byte, g gateHits) []piece {
	return matches(text, g, ".join(", joinListRe, func(m []int) (string, bool) {
		l := group(text, m, 1)
		if l == nil {
			l = group(text, m, 2)
		}
		return literals(l), len(litRe.FindAll(l, 3)) >= 3
	})
}

// joinedVars rebuilds ”.join(name) where name is assigned a list of
// string literals in the same text.
func joinedVars(text []byte, g gateHits) []piece {
	return matches(text, g, ".join(", joinVarRe, func(m []int) (string, bool) {
		re := regexp.MustCompile(`\b` + string(group(text, m, 1)) + `\s*=\s*\[` + litList + `\]`)
		a := re.FindSubmatch(text)
		if a == nil {
			return "", false
		}
		return literals(a[1]), len(litRe.FindAll(a[1], 3)) >= 3
	})
}

func concatenated(text []byte, g gateHits) []piece {
	return matches(text, g, "+", concatRe, func(m []int) (string, bool) {
		return literals(text[m[0]:m[1]]), true
	})
}

func sliced(text []byte, g gateHits) []piece {
	return matches(text, g, "::", sliceRe, func(m []int) (string, bool) {
		s := unquote(group(text, m, 1))
		step, err := strconv.Atoi(string(group(text, m, 4)))
		if err != nil || step == 0 || len(group(text, m, 2)) > 0 && step < 0 {
			return "", false
		}
		start := 0
		if g := group(text, m, 2); len(g) > 0 {
			start, _ = strconv.Atoi(string(g))
		}
		return slice(s, start, step), len(group(text, m, 3)) == 0
	})
}

// slice applies a Python slice [start::step] to s.
func slice(s string, start, step int) string {
	var b strings.Builder
	if step < 0 {
		for i := len(s) - 1; i >= 0; i += step {
			b.WriteByte(s[i])
		}
		return b.String()
	}
	for i := max(start, 0); i < len(s); i += step {
		b.WriteByte(s[i])
	}
	return b.String()
}

func reverse(s string) string { return slice(s, 0, -1) }

func unquote(l []byte) string { return string(l[1 : len(l)-1]) }

func reversed(text []byte, g gateHits) []piece {
	return matches(text, g, ".reverse(", reverseRe, func(m []int) (string, bool) {
		return reverse(unquote(group(text, m, 1))), true
	})
}

// reversedPipe writes out 'text' | rev as the reversed text, keeping the
// quotes so that what follows the pipe still reads as a pipe.
func reversedPipe(text []byte, g gateHits) []piece {
	return matches(text, g, "rev", revPipeRe, func(m []int) (string, bool) {
		return "'" + reverse(unquote(group(text, m, 1))) + "'", true
	})
}

func charCodes(text []byte, g gateHits) []piece {
	ps := matches(text, g, "chr(", chrsRe, func(m []int) (string, bool) {
		return codes(text[m[0]:m[1]])
	})
	fromList := func(m []int) (string, bool) {
		l := group(text, m, 1)
		if l == nil {
			l = group(text, m, 2)
		}
		return codes(l)
	}
	ps = append(ps, matches(text, g, "chr(", codesRe, fromList)...)
	return append(ps, matches(text, g, "fromcharcode(", codesRe, fromList)...)
}

// codes turns a list of character codes into text.
func codes(b []byte) (string, bool) {
	var s strings.Builder
	for _, d := range digitsRe.FindAll(b, -1) {
		n, err := strconv.Atoi(string(d))
		if err != nil || n > 0x10ffff {
			return "", false
		}
		s.WriteRune(rune(n))
	}
	return s.String(), s.Len() >= 4
}

// zipped rebuilds the interleaving of two variables holding string
// literals, zip(a, b).
func zipped(text []byte, g gateHits) []piece {
	return matches(text, g, "zip(", zipRe, func(m []int) (string, bool) {
		a, ok1 := assigned(text, group(text, m, 1))
		b, ok2 := assigned(text, group(text, m, 2))
		if !ok1 || !ok2 {
			return "", false
		}
		var s strings.Builder
		for i := 0; i < len(a) || i < len(b); i++ {
			if i < len(a) {
				s.WriteByte(a[i])
			}
			if i < len(b) {
				s.WriteByte(b[i])
			}
		}
		return s.String(), true
	})
}

// assigned returns the string literal assigned to name in text.
func assigned(text, name []byte) (string, bool) {
	if !bytes.Contains(text, name) {
		return "", false
	}
	re, err := regexp.Compile(`(?m)^\s*` + regexp.QuoteMeta(string(name)) + `\s*=\s*(` + lit + `)`)
	if err != nil {
		return "", false
	}
	m := re.FindSubmatch(text)
	if m == nil {
		return "", false
	}
	return unquote(m[1]), true
}

func formatted(text []byte, g gateHits) []piece {
	return matches(text, g, ".format(", formatRe, func(m []int) (string, bool) {
		f := unquote(group(text, m, 1))
		for _, a := range litRe.FindAll(group(text, m, 2), -1) {
			f = strings.Replace(f, "{}", unquote(a), 1)
		}
		return f, true
	})
}

// shellVars writes out $a$b$c when each variable is assigned in text.
func shellVars(text []byte, g gateHits) []piece {
	known := map[string]*string{}
	lookup := func(name []byte) (string, bool) {
		v, seen := known[string(name)]
		if !seen {
			if val, ok := shellAssigned(text, name); ok {
				v = &val
			}
			known[string(name)] = v
		}
		return derefOK(v)
	}
	return matches(text, g, "$", shellVarRe, func(m []int) (string, bool) {
		var s strings.Builder
		for _, v := range wordRe.FindAll(text[m[0]:m[1]], -1) {
			val, ok := lookup(v)
			if !ok {
				return "", false
			}
			s.WriteString(val)
		}
		return s.String(), true
	})
}

func derefOK(v *string) (string, bool) {
	if v == nil {
		return "", false
	}
	return *v, true
}

// shellAssigned returns the value assigned to a shell variable in text.
// The assignment is read by the shell parser, so that quoting, escapes and
// $'..' strings in the value read as the shell reads them; when its line
// does not parse (text that is not shell), the quoted or bare word after
// the = is taken as written.
func shellAssigned(text, name []byte) (string, bool) {
	if !bytes.Contains(text, append(slices.Clip(name), '=')) {
		return "", false
	}
	re, err := regexp.Compile(`(?:^|[\s;])(` + regexp.QuoteMeta(string(name)) + `=(` + lit + `|[^\s;'"]+))`)
	if err != nil {
		return "", false
	}
	m := re.FindSubmatchIndex(text)
	if m == nil {
		return "", false
	}
	if v, ok := parsedAssignment(text[m[2]:lineEndAt(text, m[2])], string(name)); ok {
		return v, true
	}
	v := text[m[4]:m[5]]
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') {
		return unquote(v), true
	}
	return string(v), true
}

func printfParts(text []byte, g gateHits) []piece {
	return matches(text, g, "printf", printfRe, func(m []int) (string, bool) {
		return literals(group(text, m, 1)), true
	})
}

// jsonEscapes writes out the \u00XX escapes of shell separators (&, |,
// ;, $ and the backquote), with which a JSON value hides a command.
func jsonEscapes(text []byte, g gateHits) []piece {
	if len(g[`\u00`]) == 0 {
		return nil
	}
	var out []piece
	for off := 0; off < len(text) && len(out) < maxRebuilt; {
		loc := jsonEscRe.FindIndex(text[off:])
		if loc == nil {
			break
		}
		ls, le := lineStartAt(text, off+loc[0]), lineEndAt(text, off+loc[0])
		line := jsonEscRe.ReplaceAllFunc(text[ls:le], func(e []byte) []byte {
			n, _ := strconv.ParseUint(string(e[2:]), 16, 8)
			return []byte{byte(n)}
		})
		out = append(out, piece{ls, le, string(line)})
		off = le + 1
	}
	return out
}

// rebuiltHits re-scans the strings of u rebuilt from pieces and returns
// what they hide beyond the findings of their lines as written.
func (s *scanner) rebuiltHits(u *unit, prior []hit) []hit {
	var out []hit
	for _, b := range rebuiltStrings(u.text) {
		_, lifted := s.payload(u, b.start, b.end, b.data, b.encoding)
		for _, h := range lifted {
			if !foundOnLine(u.text, prior, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// foundOnLine reports whether a rule already matched on the line of h.
func foundOnLine(text []byte, prior []hit, h hit) bool {
	ls, le := lineStartAt(text, h.start), matchLineEnd(text, h.start, h.end)
	for _, p := range prior {
		if p.RuleID == h.RuleID && p.start >= ls && p.start <= le {
			return true
		}
	}
	return false
}
