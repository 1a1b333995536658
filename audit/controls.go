package audit

import "strings"

// controlHits reports the control characters in a file as written.
// Escape sequences (ESC, or a C1 control that opens a sequence) rewrite
// the terminal that shows the file: they set its title, clear the screen,
// move the cursor or hide text. Other controls are stray. Tab, newline,
// form feed and a carriage return before a newline are ordinary text.
func controlHits(u *unit) []hit {
	var out []hit
	var counts [2]int
	text := u.orig
	for i := 0; i < len(text); {
		if !maybeControl[text[i]] {
			i++
			continue
		}
		end, high := controlAt(text, i)
		if end == i {
			i++
			continue
		}
		n := &counts[0]
		id := "SG-HID-021"
		if high {
			n, id = &counts[1], "SG-HID-020"
		}
		if *n < maxPerRule {
			*n++
			h := newHit(rule(id), u.file, i, end, string(text[i:end]))
			if e := escapeEffect(text[i:end]); e != "" {
				h.Message += " This one " + e + "."
			}
			out = append(out, h)
		}
		i = end
	}
	return out
}

// maybeControl marks the bytes that may start a control character: C0
// controls, DEL, and the lead byte of a C1 control in UTF-8.
var maybeControl = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = c != '\t' && c != '\n'
	}
	t[0x7f], t[0xc2] = true, true
	return t
}()

// controlAt returns the end of the control character or escape sequence
// at i, or i when there is none there, and whether it is an escape.
func controlAt(text []byte, i int) (end int, escape bool) {
	c := text[i]
	switch {
	case c == 0x1b && !escapeActs(text, i+1):
		return i + 1, false
	case c == 0x1b:
		return sequenceEnd(text, i+1), true
	case c == 0xc2 && i+1 < len(text) && text[i+1] >= 0x80 && text[i+1] <= 0x9f:
		if c1Introducer(text[i+1]) {
			return sequenceBody(text, i+2, text[i+1]), true
		}
		return i + 2, false
	case c == '\t' || c == '\n' || c == '\f':
		return i, false
	case c == '\r' && i+1 < len(text) && text[i+1] == '\n':
		return i, false
	case c < 0x20 || c == 0x7f:
		return i + 1, false
	}
	return i, false
}

// escapeActs reports whether the ESC that ends before i starts an escape that
// changes what a terminal shows: a control sequence or string, a reset, a cursor
// save, restore or move, a change of character set. An ESC before anything else,
// such as a space in a diagram, does nothing there and is a stray control; one at
// the very end acts on whatever a terminal shows next.
func escapeActs(text []byte, i int) bool {
	return i >= len(text) || introducer(text[i]) != 0 || strings.IndexByte("c78DEMNOno|}~#%()*+-./", text[i]) >= 0
}

// c1Introducer reports whether the second byte of a C1 control starts a
// sequence: DCS, SOS, CSI, OSC, PM or APC.
func c1Introducer(b byte) bool {
	return b == 0x90 || b == 0x98 || b == 0x9b || b == 0x9d || b == 0x9e || b == 0x9f
}

// sequenceEnd returns the end of the escape sequence whose ESC ends
// before i. The second byte says what follows: "[" a control sequence,
// "]", "P", "X", "^" or "_" a string, anything else nothing more.
func sequenceEnd(text []byte, i int) int {
	if i >= len(text) || text[i] < 0x20 || text[i] >= 0x7f {
		return i
	}
	kind := introducer(text[i])
	if kind == 0 {
		return i + 1
	}
	return sequenceBody(text, i+1, kind)
}

// introducer returns the C1 control that ESC followed by b stands for
// when it opens a sequence, or 0.
func introducer(b byte) byte {
	switch b {
	case '[', ']', 'P', 'X', '^', '_':
		return b + 0x40
	}
	return 0
}

// maxSequence bounds how much of a sequence a finding covers.
const maxSequence = 256

// sequenceBody returns the end of the body of a sequence of the given
// C1 kind that starts at i: a control sequence ends at its final byte,
// a string at BEL or at ESC \.
func sequenceBody(text []byte, i int, kind byte) int {
	limit := min(len(text), i+maxSequence)
	for j := i; j < limit; j++ {
		c := text[j]
		switch {
		case kind == 0x9b && c >= 0x40 && c <= 0x7e:
			return j + 1
		case kind == 0x9b && (c < 0x20 || c > 0x3f):
			return j
		case kind != 0x9b && c == 0x07:
			return j + 1
		case kind != 0x9b && c == 0x1b:
			return min(j+2, len(text))
		case kind != 0x9b && c == '\n':
			return j
		}
	}
	return limit
}

// frontMatterControls reports the control characters that YAML escapes
// such as "\e" put into the name or description. They are not in the
// file as written, yet agents read them and prompt lists them.
func frontMatterControls(file string, fm *frontMatter) []hit {
	fields := []struct {
		value string
		off   int
	}{{fm.name, fm.nameOff}, {fm.description, fm.descOff}}
	var out []hit
	for _, f := range fields {
		u := &unit{file: file, text: []byte(f.value), orig: []byte(f.value)}
		for _, h := range controlHits(u) {
			h.start, h.end = f.off, f.off
			h.Snippet = visibleString(h.content)
			h.Message += " It is written as an escape in the frontmatter."
			out = append(out, h)
		}
	}
	return out
}
