package audit

import (
	"bytes"
)

// fences returns the byte ranges of fenced code blocks in Markdown text.
func fences(text []byte) [][2]int {
	var out [][2]int
	open, start := byte(0), 0
	for off := 0; off < len(text); {
		end := lineEndAt(text, off)
		line := bytes.TrimLeft(text[off:end], " ")
		isFence := end-off-len(line) <= 3 && len(line) >= 3 &&
			(bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~")))
		switch {
		case isFence && open == 0:
			open, start = line[0], off
		case isFence && line[0] == open:
			out = append(out, [2]int{start, end})
			open = 0
		}
		off = end + 1
	}
	if open != 0 {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}

func inRanges(rs [][2]int, off int) bool {
	for _, r := range rs {
		if r[0] <= off && off < r[1] {
			return true
		}
	}
	return false
}

// quoted reports whether text[s:e] is quoted: inside a code span or
// fence, or between quotation marks on its lines.
func quoted(text []byte, fenced [][2]int, s, e int) bool {
	if inRanges(fenced, s) {
		return true
	}
	ls, le := lineStartNear(text, s), min(matchLineEnd(text, s, e), e+maxAnchor)
	before, after := text[ls:s], text[e:le]
	if bytes.Count(before, []byte("`"))%2 == 1 && bytes.IndexByte(after, '`') >= 0 {
		return true
	}
	// A quotation that a paragraph wraps closes on the next line.
	wrapped := text[e:paragraphLineEnd(text, le)]
	if bytes.Count(before, []byte(`"`))%2 == 1 && bytes.IndexByte(wrapped, '"') >= 0 {
		return true
	}
	for _, q := range [][2]string{{"“", "”"}, {"«", "»"}, {"„", "“"}, {"‘", "’"}} {
		o := bytes.LastIndex(before, []byte(q[0]))
		if o >= 0 && !bytes.Contains(before[o:], []byte(q[1])) && bytes.Contains(wrapped, []byte(q[1])) {
			return true
		}
	}
	tb := bytes.TrimRight(before, " ")
	return len(tb) > 0 && tb[len(tb)-1] == '\'' && bytes.IndexByte(after, '\'') >= 0
}

// paragraphLineEnd returns the end of the line after the one that ends at le when
// that line continues the paragraph (it is not blank), else le.
func paragraphLineEnd(text []byte, le int) int {
	if le+1 >= len(text) || text[le] != '\n' {
		return le
	}
	next := lineEndAt(text, le+1)
	if len(bytes.TrimSpace(text[le+1:next])) == 0 || next-le > maxAnchor {
		return le
	}
	return next
}

// inCodeSpan reports whether off lies inside an inline code span of its
// line, so that code is not taken for a link.
func inCodeSpan(text []byte, off int) bool {
	ls := lineStartNear(text, off)
	return bytes.Count(text[ls:off], []byte("`"))%2 == 1
}

// link is a destination found in Markdown or HTML.
type link struct {
	start, end int // the destination's bytes
	dest       string
	image      bool
	auto       bool // an autolink <scheme:...>, which XML and code look like too
}

var (
	refDefRe  = lazy(`(?m)^ {0,3}\[([^\]\n]+)\]:[ \t]*(<[^>\n]*>|\S+)`)
	autoRe    = lazy(`^<([a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>]+)>`)
	attrNames = newMatcher([]string{"href", "src", "action", "poster", "background"})
)

// links returns the link and image destinations of a Markdown or HTML
// text, skipping those inside code. Without prose, only the href and src
// attributes of HTML count: Markdown syntax means nothing in HTML.
func links(text []byte, prose bool) []link {
	fenced := fences(text)
	var out []link
	keep := func(l link) {
		if !inRanges(fenced, l.start) && !inCodeSpan(text, l.start) && len(out) < 2000 {
			out = append(out, l)
		}
	}
	if prose {
		inlineLinks(text, keep)
	}
	if prose && bytes.Contains(text, []byte("]:")) {
		for _, m := range refDefRe.FindAllSubmatchIndex(text, -1) {
			keep(link{start: m[4], end: m[5], dest: trimAngle(string(text[m[4]:m[5]]))})
		}
	}
	if bytes.IndexByte(text, '<') >= 0 {
		if prose {
			eachTag(text, autoRe, func(m []int) {
				keep(link{start: m[2], end: m[3], dest: string(text[m[2]:m[3]]), auto: true})
			})
		}
		attrNames.scanPlain(text, func(_, end int) {
			if s, e, ok := attrValue(text, end); ok {
				keep(link{start: s, end: e, dest: string(text[s:e]), image: true})
			}
		})
	}
	return out
}

// attrValue reads `= "value"` after an HTML attribute name ending at i.
func attrValue(text []byte, i int) (start, end int, ok bool) {
	skip := func() {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
	}
	skip()
	if i >= len(text) || text[i] != '=' {
		return 0, 0, false
	}
	i++
	skip()
	if i >= len(text) {
		return 0, 0, false
	}
	if q := text[i]; q == '"' || q == '\'' {
		j := bytes.IndexByte(text[i+1:min(len(text), i+1+4000)], q)
		if j < 0 {
			return 0, 0, false
		}
		return i + 1, i + 1 + j, true
	}
	j := i
	for j < len(text) && j-i < 4000 && !bytes.ContainsRune([]byte(" \t\n\r>\"'"), rune(text[j])) {
		j++
	}
	return i, j, j > i
}

func trimAngle(s string) string {
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1]
	}
	return s
}

// inlineLinks finds `[text](dest)` and `![alt](dest)`, allowing balanced
// parentheses inside the destination.
func inlineLinks(text []byte, keep func(link)) {
	for off := 0; ; {
		i := bytes.Index(text[off:], []byte("]("))
		if i < 0 {
			return
		}
		i += off
		off = i + 2
		s := off
		for s < len(text) && (text[s] == ' ' || text[s] == '\t') {
			s++
		}
		e := destEnd(text, s)
		if e <= s {
			continue
		}
		open := bytes.LastIndexByte(text[max(0, i-1000):i], '[')
		image := open >= 0 && max(0, i-1000)+open > 0 && text[max(0, i-1000)+open-1] == '!'
		keep(link{start: s, end: e, dest: trimAngle(string(text[s:e])), image: image})
		off = e
	}
}

func destEnd(text []byte, s int) int {
	if s < len(text) && text[s] == '<' {
		if j := bytes.IndexAny(text[s:min(len(text), s+2000)], ">\n"); j >= 0 && text[s+j] == '>' {
			return s + j + 1
		}
		return s
	}
	depth := 0
	for e := s; e < len(text) && e-s < 4000; e++ {
		switch c := text[e]; {
		case c == '(':
			depth++
		case c == ')' && depth == 0, c == ' ', c == '\t', c == '\n', c == '\r':
			return e
		case c == ')':
			depth--
		}
	}
	return s
}

// region is hidden text: an HTML comment, a CSS-hidden element or a
// Markdown comment idiom.
type region struct {
	start, end int // the whole construct
	inner      [2]int
	kind       string
}

var (
	openTagRe   = lazy(`^<([a-zA-Z][a-zA-Z0-9]*)\b([^<>]*)>`)
	hiddenCSSRe = lazyPattern(`(?i)\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em|rem|%)?\s*(?:[;"']|!|$)|opacity\s*:\s*0?\.?0+\s*(?:[;"']|!|$)|color\s*:\s*(?:transparent|white|#fff(?:fff)?)\b|(?:left|top|text-indent|margin-left)\s*:\s*-\d{3,}`, false)
	mdCommentRe = lazy(`(?m)^ {0,3}\[(?://|comment|_|#|-)\]:[ \t]*(?:#|<>)[ \t]*(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')`)
)

const maxRegions = 100 // hidden regions judged per file

// hiddenRegions returns the parts of a Markdown or HTML text that a
// person reading the rendered page does not see but an agent reads.
func hiddenRegions(text []byte) []region {
	fenced := fences(text)
	var out []region
	add := func(r region) {
		if !inRanges(fenced, r.start) && len(out) < maxRegions {
			out = append(out, r)
		}
	}
	htmlComments(text, add)
	hiddenElements(text, add)
	markdownComments(text, add)
	return out
}

func htmlComments(text []byte, add func(region)) {
	for off := 0; ; {
		i := bytes.Index(text[off:], []byte("<!--"))
		if i < 0 {
			return
		}
		i += off
		end := len(text)
		if j := bytes.Index(text[i+4:], []byte("-->")); j >= 0 {
			end = i + 4 + j + 3
		}
		add(region{start: i, end: end, inner: [2]int{i + 4, max(i+4, end-3)}, kind: "HTML comment"})
		off = end
	}
}

// hiddenElements finds elements hidden by CSS or the hidden attribute;
// an element without its closing tag is taken to run for 8 KiB.
func hiddenElements(text []byte, add func(region)) {
	for _, m := range hiddenTags(text) {
		closeTag := []byte("</" + string(bytes.ToLower(text[m[2]:m[3]])))
		limit := min(len(text), m[1]+8192)
		end := limit
		if k := bytes.Index(bytes.ToLower(text[m[1]:limit]), closeTag); k >= 0 {
			end = m[1] + k
		}
		add(region{start: m[0], end: end, inner: [2]int{m[1], end}, kind: "hidden HTML element"})
	}
}

func markdownComments(text []byte, add func(region)) {
	if !bytes.Contains(text, []byte("]:")) {
		return
	}
	for _, m := range mdCommentRe.FindAllSubmatchIndex(text, maxRegions) {
		r := region{start: m[0], end: m[1], kind: "Markdown comment"}
		for g := 2; g < 8; g += 2 {
			if m[g] >= 0 {
				r.inner = [2]int{m[g], m[g+1]}
			}
		}
		add(r)
	}
}

// hiddenTags returns the submatch indexes of opening HTML tags whose
// attributes hide the element.
func hiddenTags(text []byte) [][]int {
	if bytes.IndexByte(text, '<') < 0 {
		return nil
	}
	var out [][]int
	eachTag(text, openTagRe, func(m []int) {
		attrs := bytes.ToLower(text[m[4]:m[5]])
		if (bytes.Contains(attrs, []byte("hidden")) || bytes.Contains(attrs, []byte("style"))) && hiddenCSSRe.Match(attrs) {
			out = append(out, m)
		}
	})
	return out
}

const maxTag = 2048 // bytes of one HTML tag or autolink

// eachTag runs re, anchored with ^, at every '<' of text on at most
// maxTag bytes, and calls fn with each match's offsets in text. Trying
// each '<' on a bounded slice keeps the cost linear in the text.
func eachTag(text []byte, re *lazyRegexp, fn func(m []int)) {
	for off := 0; off < len(text); {
		i := bytes.IndexByte(text[off:], '<')
		if i < 0 {
			return
		}
		i += off
		off = i + 1
		end := min(len(text), i+maxTag)
		if j := bytes.IndexByte(text[i+1:end], '<'); j >= 0 {
			end = i + 1 + j
		}
		m := re.get().FindSubmatchIndex(text[i:end])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		fn(m)
		off = m[1]
	}
}
