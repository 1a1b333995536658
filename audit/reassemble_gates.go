package audit

import "bytes"

// gateHits holds, for each gate of a rebuilt string, the offsets where
// it occurs, at most maxGateLines of them.
type gateHits map[string][]int

// gateTrigger marks the bytes at which a gate ends or, for +, $, : and \,
// begins; one pass over the text finds every gate.
var gateTrigger = [256]bool{'(': true, '+': true, ':': true, '$': true, '\\': true, 'v': true, 'f': true}

// callGates are the gates that end with an opening parenthesis.
var callGates = []string{".join(", "chr(", "fromcharcode(", "zip(", ".format(", ".reverse("}

// findGates returns the gates of text in one pass over its bytes.
func findGates(text []byte) gateHits {
	g := gateHits{}
	add := func(name string, at int) {
		if len(g[name]) < maxGateLines {
			g[name] = append(g[name], at)
		}
	}
	for i, c := range text {
		if !gateTrigger[c] {
			continue
		}
		switch c {
		case '(':
			for _, name := range callGates {
				if s := i + 1 - len(name); s >= 0 && bytes.EqualFold(text[s:i+1], []byte(name)) {
					add(name, s)
				}
			}
		case '+':
			if afterQuote(text[i:]) {
				add("+", i)
			}
		case ':':
			if i+1 < len(text) && text[i+1] == ':' {
				add("::", i)
			}
		case '$':
			if twoVars(text[i:]) {
				add("$", i)
			}
		case '\\':
			if bytes.HasPrefix(text[i:], []byte(`\u00`)) {
				add(`\u00`, i)
			}
		case 'v':
			if i >= 2 && string(text[i-2:i+1]) == "rev" && pipedInto(text, i-2) {
				add("rev", i-2)
			}
		case 'f':
			if i >= 5 && string(text[i-5:i+1]) == "printf" {
				add("printf", i-5)
			}
		}
	}
	return g
}

// pipedInto reports whether a pipe comes before offset i, past spaces.
func pipedInto(text []byte, i int) bool {
	b := bytes.TrimRight(text[max(0, i-8):i], " \t")
	return len(b) > 0 && b[len(b)-1] == '|'
}

// afterQuote reports whether a + at the start of rest joins a string
// literal: a quote follows it.
func afterQuote(rest []byte) bool {
	rest = bytes.TrimLeft(rest[1:], " \t")
	return len(rest) > 0 && (rest[0] == '\'' || rest[0] == '"')
}

// twoVars reports whether the $ at the start of rest begins two shell
// variables written together, as in $a$b.
func twoVars(rest []byte) bool {
	i := 1
	if i < len(rest) && rest[i] == '{' {
		i++
	}
	for i < len(rest) && isWordByte(rest[i]) {
		i++
	}
	if i < len(rest) && rest[i] == '}' {
		i++
	}
	return i > 1 && i < len(rest) && rest[i] == '$'
}
