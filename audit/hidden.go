package audit

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// hiddenCharHits reports invisible characters and look-alike letters in u,
// decodes what tag characters and variation selectors spell, and re-runs
// the pattern rules on the text with all of them removed or folded.
func (s *scanner) hiddenCharHits(u *unit, prior []hit) []hit {
	if !hasNonASCII(u.text) {
		return nil
	}
	c := charScan{s: s, u: u, counts: map[string]int{}, rtlEnd: -1}
	text := u.text
	for i := 0; i < len(text); {
		if text[i] < 0x80 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i = c.char(r, i, size)
	}
	if c.norm {
		c.out = append(c.out, s.normalizedHits(u, prior)...)
	}
	return c.out
}

// charScan is the state of one pass of hiddenCharHits.
type charScan struct {
	s        *scanner
	u        *unit
	out      []hit
	counts   map[string]int
	norm     bool // normalizing would change the text
	wordDone int  // end of the last word checked for look-alikes
	payloads int  // hidden payloads decoded and scanned so far
	rtlEnd   int  // end of the line rtlSeen describes
	rtlSeen  bool
}

func (c *charScan) add(id string, start, end int) *hit {
	if c.counts[id] >= maxPerRule {
		return nil
	}
	c.counts[id]++
	c.out = append(c.out, newHit(rule(id), c.u.file, start, end, string(c.u.text[start:end])))
	return &c.out[len(c.out)-1]
}

// char handles the non-ASCII rune r at i and returns where to go on.
func (c *charScan) char(r rune, i, size int) int {
	text := c.u.text
	switch classify(r) {
	case invTag:
		j, _ := runEnd(text, i, invTag)
		c.norm = true
		if !isFlagTagRun(text, i, j) {
			c.tags(i, j)
		}
		return j
	case invSelector:
		return c.selectors(i)
	case invBidi:
		c.norm = true
		c.add("SG-HID-002", i, i+size)
	case invZeroWidth:
		c.zeroWidth(r, i, size)
	case invMark:
		c.norm = true
		if !c.rtl(i) {
			c.add("SG-HID-008", i, i+size)
		}
	case invOther:
		c.norm = true
		c.add("SG-HID-008", i, i+size)
	default:
		c.lookAlike(r, i)
	}
	return i + size
}

// rtl reports whether the line around i holds right-to-left letters,
// looking at each line once.
func (c *charScan) rtl(i int) bool {
	if i > c.rtlEnd {
		c.rtlEnd, c.rtlSeen = lineEndAt(c.u.text, i), rtlLine(c.u.text, i)
	}
	return c.rtlSeen
}

// decode reports whether another hidden payload may be scanned.
func (c *charScan) decode() bool {
	c.payloads++
	return c.payloads <= maxBlobs
}

func (c *charScan) tags(i, j int) {
	h := c.add("SG-HID-001", i, j)
	if !c.decode() {
		return
	}
	decoded := decodeTags(c.u.text[i:j])
	shown, lifted := c.s.payload(c.u, i, j, []byte(decoded), "Unicode tag characters")
	if h != nil {
		h.Decoded = shown
		h.content = decoded
	}
	c.out = append(c.out, lifted...)
}

func (c *charScan) selectors(i int) int {
	j, n := runEnd(c.u.text, i, invSelector)
	if n < 2 {
		return j
	}
	c.norm = true
	if n < 4 {
		c.add("SG-HID-008", i, j)
		return j
	}
	h := c.add("SG-HID-004", i, j)
	data := decodeSelectors(c.u.text[i:j])
	if c.decode() && printable(data) {
		shown, lifted := c.s.payload(c.u, i, j, data, "variation selectors")
		if h != nil {
			h.Decoded = shown
			h.content = string(data)
		}
		c.out = append(c.out, lifted...)
	}
	return j
}

// zeroWidth judges a zero-width character by its neighbours: joiners are
// part of emoji and of several scripts, but between two Latin letters
// they only serve to split a word so that filters miss it.
func (c *charScan) zeroWidth(r rune, i, size int) {
	if r == 0xfeff && i == 0 {
		return
	}
	c.norm = true
	prev, next := neighbours(c.u.text, i, i+size)
	switch {
	case r == 0x200d && (emojiLike(prev) || emojiLike(next)):
	case (r == 0x200c || r == 0x200d) && (joinerScript(prev) || joinerScript(next)):
	case r == 0x200b && joinerScript(prev) && joinerScript(next):
	case latinLike(prev) && latinLike(next):
		if c.counts["SG-HID-003"] < maxPerRule {
			s, e := wordAt(c.u.text, max(0, i-maxInvisibleRun), min(len(c.u.text), i+size+maxInvisibleRun), i)
			c.add("SG-HID-003", s, e)
		}
	default:
		c.add("SG-HID-008", i, i+size)
	}
}

// lookAlike reports a word that mixes ASCII letters with letters of other
// scripts that look the same, and asks for a normalized re-scan.
func (c *charScan) lookAlike(r rune, i int) {
	if i < c.wordDone {
		return
	}
	if _, ok := foldRune(r); !ok {
		return
	}
	s, e := wordAt(c.u.text, max(0, i-maxWord), min(len(c.u.text), i+maxWord), i)
	c.wordDone = e
	ascii, fold, other := wordMix(c.u.text[s:e])
	if other > 0 {
		return
	}
	c.norm = true
	if ascii > 0 && fold > 0 && hasConfusable(c.u.text[s:e]) && wordLike(c.u.text[s:e]) {
		c.add("SG-HID-011", s, e)
	}
}

// wordLike reports whether a word could pass for an English word: three
// Latin letters or more and no digit or underscore. Notation such as
// "Cα", "α1" or "ρ_AB" mixes scripts in the open.
func wordLike(word []byte) bool {
	n := 0
	for _, b := range word {
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z':
			n++
		case '0' <= b && b <= '9', b == '_':
			return false
		}
	}
	return n >= 3
}

func hasConfusable(word []byte) bool {
	for _, r := range string(word) {
		if _, ok := confusables[r]; ok {
			return true
		}
	}
	return false
}

// rtlLine reports whether the line around i holds right-to-left letters,
// where bidirectional marks are ordinary punctuation.
func rtlLine(text []byte, i int) bool {
	for _, r := range string(text[lineStartAt(text, i):lineEndAt(text, i)]) {
		if r >= 0x0590 && r <= 0x08ff || r >= 0xfb1d && r <= 0xfefc {
			return true
		}
	}
	return false
}

// normalizedHits re-runs the pattern rules on u with invisible characters
// removed and look-alike letters folded, and returns what that finds
// beyond the findings of the text as written.
func (s *scanner) normalizedHits(u *unit, prior []hit) []hit {
	n, changed := normalize(u.text)
	if !changed {
		return nil
	}
	seen := map[string]int{}
	for _, h := range prior {
		seen[h.RuleID+"\x00"+normalizeContent(h.content)]++
	}
	nu := &unit{file: u.file, text: n.text, orig: n.text, kind: u.kind, depth: u.depth + 1}
	var out []hit
	for _, h := range s.patternHits(nu) {
		key := h.RuleID + "\x00" + normalizeContent(h.content)
		if seen[key] > 0 {
			seen[key]--
			continue
		}
		h.start, h.end = int(n.offs[h.start]), int(n.offs[h.end])
		h.Decoded = visibleString(h.content)
		if h.tags&tagSecret != 0 {
			h.Decoded = redactString(h.content)
		}
		h.tags |= tagObfuscation
		h.Message += " It was disguised with invisible characters or look-alike letters; Decoded shows it plainly."
		out = append(out, h)
	}
	return out
}

// payload scans text decoded from u[start:end] and returns it for
// display, redacted, together with its findings moved to that range.
func (s *scanner) payload(u *unit, start, end int, data []byte, via string) (string, []hit) {
	inner := &unit{file: u.file, text: data, orig: data, kind: kindProse | kindScript | kindMarkup | kindData, depth: u.depth + 1}
	hits := s.scanText(inner)
	shown := excerpt(data, 0, len(data), secretSpans(hits))
	whole := utf8.RuneCount(data) <= maxSnippet
	for i := range hits {
		h := &hits[i]
		switch {
		case h.Decoded != "":
		case whole:
			h.Decoded = shown
		default:
			h.Decoded = h.Snippet
		}
		h.Snippet = ""
		h.start, h.end = start, end
		h.content = via + "\x00" + h.content
		h.tags |= tagObfuscation
		h.Message += " It was hidden in " + via + "; Decoded shows the decoded text."
	}
	return shown, hits
}

// blobHits decodes base64, hex and escaped runs in u, re-scans what they
// hide, and reports long runs that hide text or unknown data.
func (s *scanner) blobHits(u *unit, spans [][2]int) []hit {
	var out []hit
	for _, b := range findBlobs(u.text) {
		shown := ""
		if printable(b.data) {
			var lifted []hit
			shown, lifted = s.payload(u, b.start, b.end, b.data, b.encoding+" text")
			out = append(out, lifted...)
		}
		if suspiciousBlob(b) && encodedLooking(b, u.text[b.start:b.end]) && !overlaps(spans, b.start, b.end) && len(out) < 4*maxPerRule {
			h := newHit(rule("SG-HID-010"), u.file, b.start, b.end, string(u.text[b.start:b.end]))
			h.Decoded = shown
			out = append(out, h)
		}
	}
	return out
}

func suspiciousBlob(b blob) bool {
	if b.encoding == "escapes" {
		return asciiText(b.data)
	}
	return b.end-b.start >= longBlob && !inertBinary(b.data)
}

// encodedLooking reports whether a run looks like encoded data rather than
// a ruler of dashes or a protein sequence: varied characters and, for
// base64, letters of both cases, as any base64 of more than a few bytes has.
func encodedLooking(b blob, run []byte) bool {
	return varied(run) && (b.encoding != "base64" || mixedCase(run))
}

// mixedCase reports whether a run holds both upper and lower case letters,
// as any base64 of more than a few bytes does.
func mixedCase(run []byte) bool {
	return bytes.ContainsFunc(run, unicode.IsUpper) && bytes.ContainsFunc(run, unicode.IsLower)
}

// varied reports whether a run uses enough distinct characters to carry
// anything: a ruler of dashes or equals signs encodes nothing.
func varied(run []byte) bool {
	var seen [256]bool
	n := 0
	for _, c := range run {
		if !seen[c] {
			seen[c] = true
			if n++; n >= 8 {
				return true
			}
		}
	}
	return false
}

func asciiText(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return printable(b)
}

func overlaps(spans [][2]int, s, e int) bool {
	for _, sp := range spans {
		if sp[0] < e && s < sp[1] {
			return true
		}
	}
	return false
}
