package audit

import (
	"bytes"
)

// csiRe splits a control sequence, introduced by ESC [ or by the C1 CSI,
// into its parameters and its final byte.
var csiRe = lazy(`^(?:\x1b\[|\x{9b})([0-?]*)[ -/]*([@-~])`)

// oscRe matches an operating system command that sets the window or icon
// title, introduced by ESC ] or by the C1 OSC.
var oscRe = lazy(`^(?:\x1b\]|\x{9d})[012];`)

// escapeEffect says in a few words what an escape sequence does to a
// terminal, or "" for sequences without a notable effect.
func escapeEffect(seq []byte) string {
	if oscRe.Match(seq) {
		return "sets the terminal's window title"
	}
	m := csiRe.FindSubmatch(seq)
	if m == nil {
		return ""
	}
	switch final := m[2][0]; {
	case final == 'J' || final == 'K':
		return "erases the screen or a line"
	case final == 'm' && hasParam(m[1], "8"):
		return "hides the text that follows"
	case bytes.IndexByte([]byte("ABCDEFGHfsu"), final) >= 0:
		return "moves the cursor"
	}
	return ""
}

// hasParam reports whether the parameters of a control sequence hold p.
func hasParam(params []byte, p string) bool {
	for _, f := range bytes.Split(params, []byte(";")) {
		if string(f) == p {
			return true
		}
	}
	return false
}
