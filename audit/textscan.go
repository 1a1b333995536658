package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"unicode/utf8"
)

// hit is a finding while a skill is being scanned: the public fields plus
// what the combination rules and the positions need.
type hit struct {
	Finding
	rule       *Rule
	start, end int    // byte range in the file; start < 0 when not about text
	content    string // what the fingerprint covers
	tags       tag
	more       int    // further matches of the rule in the text, counted but not reported
	moreSum    string // a hash of those matches, so that a fingerprint covers them too
}

// unit is one text the rules read: a file, or text decoded from it.
type unit struct {
	file  string
	text  []byte // what the rules read
	lower []byte // text folded to lowercase ASCII, made on first use
	orig  []byte // what snippets show; the same length as text
	kind  fileKind
	depth int
	html  bool // an HTML or SVG file
	app   bool // an HTML or SVG file with script: the UI of a shipped tool
}

const maxPerRule = 20 // matches of one rule reported per text

func newHit(r *Rule, file string, start, end int, content string) hit {
	return hit{
		Finding: Finding{RuleID: r.ID, Severity: r.Severity, File: file, Message: r.message},
		rule:    r, start: start, end: end, content: content, tags: r.tags,
	}
}

// scanText runs the text rules over u and returns hits whose offsets
// refer to u.text, with snippets filled in and secrets redacted.
func (s *scanner) scanText(u *unit) []hit {
	hits := s.customHits(u, s.patternHits(u))
	if u.depth < maxDepth {
		spans := secretSpans(hits)
		hits = append(hits, s.hiddenCharHits(u, hits)...)
		hits = append(hits, s.blobHits(u, spans)...)
		hits = append(hits, s.rebuiltHits(u, hits)...)
		hits = append(hits, s.shellExpandHits(u, hits)...)
		hits = append(hits, shellFlowHits(u, s.dumped)...)
		hits = append(hits, nonLatinHits(u)...)
		hits = append(hits, scriptHits(u, hits)...)
	}
	if u.depth == 0 {
		hits = append(hits, controlHits(u)...)
	}
	if u.depth == 0 && u.kind&(kindProse|kindMarkup) != 0 {
		hits = append(hits, s.markupHits(u, hits)...)
	}
	if u.depth == 0 && u.kind&kindProse != 0 {
		demoteQuoted(u, hits)
		demoteSetupSnippets(u, hits)
	}
	spans := secretSpans(hits)
	for i := range hits {
		h := &hits[i]
		if h.Snippet == "" && h.start >= 0 {
			h.Snippet = excerpt(u.orig, h.start, h.end, spans)
		}
	}
	return hits
}

// patternHits runs the pattern rules on the lines around their keyword
// hits, or on the whole text when the prefilter is off.
func (s *scanner) patternHits(u *unit) []hit {
	e := s.eng
	if !s.opts.noPrefilter {
		e.prefilter(u.text, s.cand, &s.st)
	}
	var out []hit
	whole := [][2]int{{0, len(u.text)}}
	for ri, r := range e.rules {
		if r.kinds != 0 && r.kinds&u.kind == 0 {
			continue
		}
		switch {
		case s.opts.noPrefilter:
			out = s.runRule(ri, r, u, whole, out)
		case len(s.cand.hits[ri]) == 0:
		case r.anchored:
			out = s.runAnchored(ri, r, u, s.cand.hits[ri], out)
		default:
			s.wins = windows(u.text, s.cand.hits[ri], r.span, s.wins)
			out = s.runRule(ri, r, u, s.wins, out)
		}
	}
	return out
}

func (s *scanner) runRule(ri int, r *Rule, u *unit, wins [][2]int, out []hit) []hit {
	n := 0
	lower := u.folded()
	subject := lower
	if r.exact {
		subject = u.text
	}
	more, sum := 0, hash.Hash(nil)
	for _, w := range wins {
		if !s.needsMet(ri, r, u, w[0], w[1]) {
			continue
		}
		s.st.RegexEvals++
		for _, loc := range findAll(r, subject[w[0]:w[1]], maxPerRule+maxCounted-more) {
			for i := range loc {
				if loc[i] >= 0 {
					loc[i] += w[0]
				}
			}
			if r.validate != nil && !r.validate(u.text, loc) {
				continue
			}
			if n >= maxPerRule {
				more++
				sum = moreSum(sum)
				sum.Write(u.text[loc[0]:loc[1]])
				sum.Write([]byte{0})
				continue
			}
			out = append(out, newHit(r, u.file, loc[0], loc[1], string(u.text[loc[0]:loc[1]])))
			n++
		}
		if more >= maxCounted {
			break
		}
	}
	return countMore(out, more, sum)
}

// maxCounted bounds the matches of one rule counted, beyond those
// reported, in one text.
const maxCounted = 100000

// moreSum returns sum, or a new hash for the matches beyond those reported.
func moreSum(sum hash.Hash) hash.Hash {
	if sum == nil {
		return sha256.New()
	}
	return sum
}

// countMore records on the last hit how many more matches of its rule
// were counted but not reported, and a hash of them.
func countMore(out []hit, more int, sum hash.Hash) []hit {
	if more > 0 && len(out) > 0 {
		out[len(out)-1].more = more
		out[len(out)-1].moreSum = hex.EncodeToString(sum.Sum(nil))
	}
	return out
}

// runAnchored tries an anchored rule at each of its keyword starts, on
// the rest of the line and span lines more.
func (s *scanner) runAnchored(ri int, r *Rule, u *unit, starts []int32, out []hit) []hit {
	lower := u.folded()
	subject := lower
	if r.exact {
		subject = u.text
	}
	n, done, more, sum := 0, 0, 0, hash.Hash(nil)
	lines := lineCursor{text: u.text}
	for _, st := range starts {
		start := int(st)
		if start < done {
			continue
		}
		end := anchorEnd(u.text, start, r.span)
		if r.reach > 0 {
			end = min(end, start+r.reach)
		}
		ws := lines.near(start)
		if r.reach > 0 {
			ws = max(ws, start-r.reach)
		}
		if !s.needsMet(ri, r, u, ws, end) {
			continue
		}
		s.st.RegexEvals++
		loc := findAnchored(r, subject[start:end])
		if loc == nil {
			continue
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += start
			}
		}
		if r.validate != nil && !r.validate(u.text, loc) {
			continue
		}
		done = loc[1]
		if n >= maxPerRule {
			sum = moreSum(sum)
			sum.Write(u.text[loc[0]:loc[1]])
			sum.Write([]byte{0})
			if more++; more >= maxCounted {
				break
			}
			continue
		}
		out = append(out, newHit(r, u.file, loc[0], loc[1], string(u.text[loc[0]:loc[1]])))
		n++
	}
	return countMore(out, more, sum)
}

// findAll returns the matches of r in b: tried only where a match can
// begin when the pattern tells where (see starts), which finds the same.
// Only rules that validate their matches read the submatches; for the
// others the cheaper search that tracks no groups is enough.
func findAll(r *Rule, b []byte, limit int) [][]int {
	p := r.compiled()
	if p.starts != nil {
		return p.starts.findAll(b, limit, r.validate != nil)
	}
	if r.validate == nil {
		return p.re.FindAllIndex(b, limit)
	}
	return p.re.FindAllSubmatchIndex(b, limit)
}

// findAnchored is findAll for one match of an anchored rule.
func findAnchored(r *Rule, b []byte) []int {
	if r.validate == nil {
		return r.compiled().anchor.FindIndex(b)
	}
	return r.compiled().anchor.FindSubmatchIndex(b)
}

// maxAnchor bounds the text an anchored match may span, so that a line of
// half a megabyte full of keywords costs linear time, not quadratic.
const maxAnchor = 4096

// anchorEnd returns the end of the text an anchored attempt at start
// reads: the end of the line and span more lines, at most maxAnchor bytes.
func anchorEnd(text []byte, start, span int) int {
	limit := min(len(text), start+maxAnchor)
	end := start
	for i := 0; i <= span && end < limit; i++ {
		if i > 0 {
			end++
		}
		if j := bytes.IndexByte(text[end:limit], '\n'); j >= 0 {
			end += j
		} else {
			end = limit
		}
	}
	return end
}

var lowerTable = func() (t [256]byte) {
	for c := range t {
		t[c] = lowerASCII(byte(c))
	}
	return t
}()

// folded returns u.text folded to lowercase ASCII; offsets are unchanged.
func (u *unit) folded() []byte {
	if u.lower == nil {
		u.lower = make([]byte, len(u.text))
		for i, b := range u.text {
			u.lower[i] = lowerTable[b]
		}
	}
	return u.lower
}

// windowHas reports whether w holds, for every entry of needs, one of the
// entry's words.
func windowHas(w []byte, needs [][][]byte) bool {
	for _, words := range needs {
		found := false
		for _, word := range words {
			if bytes.Contains(w, word) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// demoteQuoted lowers by one level the rules about language when their
// match is quoted as an example, as documents that teach about attacks do.
// Text that was hidden or encoded is no example, so it keeps its severity.
func demoteQuoted(u *unit, hits []hit) {
	var fenced [][2]int
	computed := false
	for i := range hits {
		h := &hits[i]
		if !h.rule.demote || h.start < 0 || h.Severity != h.rule.Severity || h.tags&tagObfuscation != 0 {
			continue
		}
		if !computed {
			fenced, computed = fences(u.text), true
		}
		if quoted(u.text, fenced, h.start, h.end) {
			h.Severity = h.Severity.lower()
			h.Message += " It is quoted as an example, so its severity is one level lower."
		}
	}
}

// lineIndex answers position queries for many offsets of one text.
type lineIndex []int

func newLineIndex(text []byte) lineIndex { return lineStarts(text) }

func (li lineIndex) position(text []byte, off int) (line, col int) {
	off = min(max(off, 0), len(text))
	line = li.line(off)
	return line, utf8.RuneCount(text[li[line-1]:off]) + 1
}

// line returns the 1-based line holding byte offset off.
func (li lineIndex) line(off int) int {
	lo, hi := 0, len(li)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if li[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// blankContinuations returns text with each backslash-newline replaced by
// two spaces, so that a command split over lines reads as one line while
// every offset stays the same.
func blankContinuations(text []byte) []byte {
	if !bytes.Contains(text, []byte("\\\n")) && !bytes.Contains(text, []byte("\\\r\n")) {
		return text
	}
	out := bytes.Clone(text)
	for i := 0; i+1 < len(out); i++ {
		if out[i] != '\\' {
			continue
		}
		switch {
		case out[i+1] == '\n':
			out[i], out[i+1] = ' ', ' '
		case out[i+1] == '\r' && i+2 < len(out) && out[i+2] == '\n':
			out[i], out[i+1], out[i+2] = ' ', ' ', ' '
		}
	}
	return out
}
