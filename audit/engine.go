package audit

import (
	"bytes"
	"strings"
	"sync"
)

// engine holds the pattern rules compiled behind one keyword matcher.
type engine struct {
	rules   []*Rule
	m       *matcher
	kwRules [][]int32 // keyword index -> indexes into rules
	kwWord  []uint8   // keyword index -> boundary flags
	// Words that rules need in their windows (Rule.needs) are keywords of the matcher too,
	// from keyword index firstNeed on, so that one pass finds where they occur.
	firstNeed int
	needs     [][][]int32 // rule index -> for each entry of its needs, need word indexes
}

const (
	wordStart uint8 = 1 << iota
	wordEnd
)

var compiled = sync.OnceValue(func() *engine { return newEngine(ruleList) })

// newEngine compiles the pattern rules among rules. A keyword may be
// written with a leading or trailing `\b` to demand a word boundary there;
// identical keywords of several rules share one entry of the matcher.
func newEngine(rules []*Rule) *engine {
	e := &engine{}
	index := map[string]int{}
	var words []string
	for _, r := range rules {
		if r.pattern == "" || r.descOnly {
			continue
		}
		ri := int32(len(e.rules))
		e.rules = append(e.rules, r)
		for _, k := range r.Keywords {
			word, flags := parseKeyword(k)
			key := string(rune('0'+flags)) + word
			i, ok := index[key]
			if !ok {
				i = len(words)
				index[key] = i
				words = append(words, word)
				e.kwRules = append(e.kwRules, nil)
				e.kwWord = append(e.kwWord, flags)
			}
			e.kwRules[i] = append(e.kwRules[i], ri)
		}
	}
	e.firstNeed = len(words)
	words = e.addNeeds(words)
	e.m = newMatcher(words)
	return e
}

// addNeeds appends the words of the rules' needs to the matcher's words, once each, and
// records which of them each rule needs.
func (e *engine) addNeeds(words []string) []string {
	index := map[string]int32{}
	e.needs = make([][][]int32, len(e.rules))
	for ri, r := range e.rules {
		for _, entry := range r.needAny {
			var ids []int32
			for _, w := range entry {
				i, ok := index[string(w)]
				if !ok {
					i = int32(len(words) - e.firstNeed)
					index[string(w)] = i
					words = append(words, string(w))
				}
				ids = append(ids, i)
			}
			e.needs[ri] = append(e.needs[ri], ids)
		}
	}
	return words
}

func parseKeyword(k string) (string, uint8) {
	var flags uint8
	if s, ok := strings.CutPrefix(k, `\b`); ok {
		k, flags = s, flags|wordStart
	}
	if s, ok := strings.CutSuffix(k, `\b`); ok {
		k, flags = s, flags|wordEnd
	}
	return k, flags
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

func boundaryOK(text []byte, start, end int, flags uint8) bool {
	if flags&wordStart != 0 && start > 0 && isWordByte(text[start-1]) {
		return false
	}
	if flags&wordEnd != 0 && end < len(text) && isWordByte(text[end]) {
		return false
	}
	return true
}

// candidates finds, for each pattern rule, the offsets of keyword hits in
// text, at most one per line. hits is reused between calls.
type candidates struct {
	hits    [][]int32 // rule index -> hit offsets, ascending, one per line
	lineEnd []int32   // rule index -> end of the line of its last hit
	need    [][]int32 // need word index -> every offset where it occurs, ascending
	tail    []kwEnd   // the matcher's buffer
}

// candidatePool keeps the candidates of finished scans for the next, so that each scan does
// not allocate them again; those grown past keptStarts offsets in all are dropped.
var candidatePool sync.Pool

const keptStarts = 1 << 16

func takeCandidates() *candidates {
	if c, ok := candidatePool.Get().(*candidates); ok {
		return c
	}
	return &candidates{}
}

func releaseCandidates(c *candidates) {
	n := 0
	for _, h := range c.hits {
		n += cap(h)
	}
	for _, o := range c.need {
		n += cap(o)
	}
	n += cap(c.tail)
	if n <= keptStarts {
		candidatePool.Put(c)
	}
}

func (c *candidates) reset(n, needs int) {
	if len(c.hits) != n {
		c.hits = make([][]int32, n)
		c.lineEnd = make([]int32, n)
	}
	for i := range c.hits {
		c.hits[i] = c.hits[i][:0]
		c.lineEnd[i] = -1
	}
	if len(c.need) != needs {
		c.need = make([][]int32, needs)
	}
	for i := range c.need {
		c.need[i] = c.need[i][:0]
	}
}

// addStart records a keyword start for an anchored rule; starts arrive in
// order of their keyword's end, so a shorter keyword may start later.
func (c *candidates) addStart(ri int32, start int) {
	h := c.hits[ri]
	if n := len(h); n > 0 && h[n-1] >= int32(start) {
		if h[n-1] == int32(start) {
			return
		}
		i := n
		for i > 0 && h[i-1] > int32(start) {
			i--
		}
		if i > 0 && h[i-1] == int32(start) {
			return
		}
		h = append(h, 0)
		copy(h[i+1:], h[i:])
		h[i] = int32(start)
		c.hits[ri] = h
		return
	}
	if len(h) < maxStarts {
		c.hits[ri] = append(h, int32(start))
	}
}

const maxStarts = 1 << 14 // keyword starts kept per anchored rule and text

func (e *engine) prefilter(text []byte, c *candidates, st *Stats) {
	c.reset(len(e.rules), len(e.m.lens)-e.firstNeed)
	e.m.scan(text, &c.tail, func(kw, end int) {
		start := end - int(e.m.lens[kw])
		if kw >= e.firstNeed {
			c.need[kw-e.firstNeed] = append(c.need[kw-e.firstNeed], int32(start))
			return
		}
		if !boundaryOK(text, start, end, e.kwWord[kw]) {
			return
		}
		st.PrefilterHits++
		for _, ri := range e.kwRules[kw] {
			if e.rules[ri].anchored {
				c.addStart(ri, start)
				continue
			}
			if int32(start) <= c.lineEnd[ri] {
				continue
			}
			c.hits[ri] = append(c.hits[ri], int32(start))
			c.lineEnd[ri] = int32(lineEndAt(text, start))
		}
	})
}

func lineEndAt(text []byte, off int) int {
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(text)
}

// matchLineEnd returns the end of the line on which the match text[s:e] ends,
// never before e: a match may take in the newline that ends its line, and
// what follows such a match on its line is then nothing.
func matchLineEnd(text []byte, s, e int) int {
	return max(e, lineEndAt(text, max(s, e-1)))
}

func lineStartAt(text []byte, off int) int {
	return bytes.LastIndexByte(text[:off], '\n') + 1
}

// lineStartNear is lineStartAt looking back no more than maxAnchor bytes,
// for callers that run once per keyword or character of a line.
func lineStartNear(text []byte, off int) int {
	lo := max(0, off-maxAnchor)
	return lo + bytes.LastIndexByte(text[lo:off], '\n') + 1
}

// lineCursor answers lineStartNear for the ascending offsets of one text, reading each byte
// between them once rather than looking back from each.
type lineCursor struct {
	text []byte
	from int // the last offset asked about
	line int // the start of the line holding from
}

// near returns lineStartNear(c.text, off).
func (c *lineCursor) near(off int) int {
	if off < c.from {
		return lineStartNear(c.text, off)
	}
	if i := bytes.LastIndexByte(c.text[c.from:off], '\n'); i >= 0 {
		c.line = c.from + i + 1
	}
	c.from = off
	return max(c.line, off-maxAnchor)
}

// windows turns hit offsets into merged byte ranges of whole lines,
// widened by span lines on each side.
func windows(text []byte, hits []int32, span int, out [][2]int) [][2]int {
	out = out[:0]
	for _, h := range hits {
		s, e := lineStartAt(text, int(h)), lineEndAt(text, int(h))
		for i := 0; i < span && s > 0; i++ {
			s = lineStartAt(text, s-1)
		}
		for i := 0; i < span && e < len(text); i++ {
			e = lineEndAt(text, e+1)
		}
		if n := len(out); n > 0 && s <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], e)
			continue
		}
		out = append(out, [2]int{s, e})
	}
	return out
}
