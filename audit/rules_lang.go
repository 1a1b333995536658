package audit

import (
	"bytes"
	"maps"
	"slices"
	"sync"
)

// Classes of prompt injection as skills write them in English, Spanish, Portuguese, French,
// German, Italian, Russian, Chinese, Japanese and Korean: hiding an action from the user, a
// persona without limits, obeying what fetched content says, putting the conversation or
// secrets where they leave the machine, and quietly opening root access. Each class is one
// rule. Its pattern holds the phrasings of the Latin-script languages, each beginning with
// a word, so that a line is searched only where such a word begins; scriptPhrases
// holds those of Russian, Chinese, Japanese and Korean, which the keyword prefilter cannot
// read, and which are tried only on lines that hold one of their cue words.

func init() {
	register(langHideRule, langPersonaRule, langFetchedRule, langLeakRule, langRootRule)
}

// scriptPhrase is a class of phrasing written in a script outside ASCII.
type scriptPhrase struct {
	rule   string   // the id of the rule the phrasing belongs to
	cues   []string // words one of which a line must hold before re is tried
	re     *lazyRegexp
	check  func(text []byte, s, e int) bool // accepts a match; nil accepts every match
	search *phraseSearch
}

// phraseSearch holds what a phrase's matches begin with, found when the phrase is first
// tried: a line is then searched only where one of those texts begins, as rules are.
type phraseSearch struct {
	once sync.Once
	st   *starts
}

// findAll returns the matches of p in b.
func (p *scriptPhrase) findAll(b []byte) [][]int {
	p.search.once.Do(func() { p.search.st = newStarts(p.re.get()) })
	if p.search.st != nil {
		return p.search.st.findAll(b, maxPerRule, false)
	}
	return p.re.FindAllIndex(b, maxPerRule)
}

// scriptPhrases lists the phrasings of every class in Russian, Chinese, Japanese and Korean.
var scriptPhrases = sync.OnceValue(func() []scriptPhrase {
	var all []scriptPhrase
	for _, set := range [][]scriptPhrase{hideScripts, personaScripts, fetchedScripts, leakScripts, rootScripts} {
		for _, p := range set {
			p.search = &phraseSearch{}
			all = append(all, p)
		}
	}
	return all
})

// scriptCueIndex finds the cue words of all script phrases in one pass.
type scriptCueIndex struct {
	m      *matcher
	owners [][]int // cue word index -> the phrases that wait for it
}

var scriptCues = sync.OnceValue(func() *scriptCueIndex {
	owners := map[string][]int{}
	for pi, p := range scriptPhrases() {
		for _, c := range p.cues {
			owners[c] = append(owners[c], pi)
		}
	}
	words := slices.Sorted(maps.Keys(owners))
	ix := &scriptCueIndex{}
	for _, w := range words {
		ix.owners = append(ix.owners, owners[w])
	}
	// The matcher compares bytes; cue words are lowercase, and bytes outside ASCII are read
	// as they are.
	ix.m = newMatcher(words)
	return ix
})

// scriptHits finds the script phrases in u. A line is tried once per phrase, where a cue
// word of the phrase occurs; a match that a finding of at least its severity already covers
// adds nothing. A match inside Japanese or Chinese corner quotes is an example quoted, one
// level lower, as demoteQuoted lowers one in Latin quotes.
func scriptHits(u *unit, prior []hit) []hit {
	if !hasNonASCII(u.text) {
		return nil
	}
	text := u.text
	phrases := scriptPhrases()
	ix := scriptCues()
	tried := make([]int, len(phrases))
	var out []hit
	ix.m.scanPlain(text, func(kw, end int) {
		start := end - int(ix.m.lens[kw])
		for _, pi := range ix.owners[kw] {
			if start < tried[pi] || len(out) >= maxPerRule*len(phrases) {
				continue
			}
			ws, we := lineStartNear(text, start), min(lineEndAt(text, start), start+maxAnchor)
			tried[pi] = we
			out = append(out, phrases[pi].find(u, ws, we, prior, out)...)
		}
	})
	return out
}

// find returns the hits of p in u.text[ws:we].
func (p *scriptPhrase) find(u *unit, ws, we int, prior, found []hit) []hit {
	r := rule(p.rule)
	var out []hit
	for _, loc := range p.findAll(u.text[ws:we]) {
		s, e := ws+loc[0], ws+loc[1]
		if p.check != nil && !p.check(u.text, s, e) || covered(prior, s, e, r.Severity) || covered(found, s, e, r.Severity) {
			continue
		}
		h := newHit(r, u.file, s, e, string(u.text[s:e]))
		if r.demote && inCornerQuotes(u.text, s, e) {
			h.Severity = h.Severity.lower()
			h.Message += " It is quoted as an example, so its severity is one level lower."
		}
		out = append(out, h)
	}
	return out
}

// covered reports whether a hit of at least severity sev overlaps text[s:e].
func covered(hits []hit, s, e int, sev Severity) bool {
	for _, h := range hits {
		if h.start < e && s < h.end && h.Severity >= sev {
			return true
		}
	}
	return false
}

// inCornerQuotes reports whether text[s:e] sits inside 「」 or 『』 on its line.
func inCornerQuotes(text []byte, s, e int) bool {
	before, after := text[lineStartNear(text, s):s], text[e:min(lineEndAt(text, e), e+maxAnchor)]
	for _, q := range [][2]string{{"「", "」"}, {"『", "』"}} {
		o := bytes.LastIndex(before, []byte(q[0]))
		if o >= 0 && !bytes.Contains(before[o:], []byte(q[1])) && bytes.Contains(after, []byte(q[1])) {
			return true
		}
	}
	return false
}

// clauseBefore returns the text of the clause that leads up to off: back to the last
// sentence or clause mark of its line, at most n bytes, lowercased.
func clauseBefore(text []byte, off, n int) []byte {
	ls := max(lineStartNear(text, off), off-n)
	b := text[ls:off]
	if i := bytes.LastIndexAny(b, ".;!?:"); i >= 0 {
		b = b[i+1:]
	}
	for _, mark := range []string{"。", "！", "？", "；"} {
		if i := bytes.LastIndex(b, []byte(mark)); i >= 0 {
			b = b[i+len(mark):]
		}
	}
	return bytes.ToLower(b)
}

// clauseAfter returns the text from off to the next sentence or clause mark, at most n bytes,
// lowercased.
func clauseAfter(text []byte, off, n int) []byte {
	b := text[off:min(lineEndAt(text, off), off+n)]
	if i := bytes.IndexAny(b, ".;!?"); i >= 0 {
		b = b[:i]
	}
	for _, mark := range []string{"。", "！", "？", "；"} {
		if i := bytes.Index(b, []byte(mark)); i >= 0 {
			b = b[:i]
		}
	}
	return bytes.ToLower(b)
}

// negationBeforeRe matches a word that forbids what follows it, in the ten languages; the
// clause before a match is searched for it.
var negationBeforeRe = lazy(`(?:^|[^\p{L}'’])(?:never|not|don['’]t|avoid|no|nunca|jam[aá]s|evita|evite|n[ãa]o|ne|nicht|nie|niemals|keine?[nmrs]?|vermeide|non|mai|evitare|не|никогда|нельзя|запрещено|不要|别|別|切勿|禁止|不得|绝不|絕不|不可|不能|勿|避免)(?:$|[^\p{L}])|n['’]t(?:$|[^\p{L}])|(?:^|[^\p{L}])n['’]|(?:不要|别|別|切勿|禁止|不得|绝不|絕不|不可|不能|勿|避免)`)

// negationInsideRe matches, inside a match, the words with which German, French, Italian,
// Spanish and Portuguese deny a verb after it: "füge niemals", "n'ajoute jamais".
var negationInsideRe = lazy(`(?:^|[^\p{L}])(?:niemals|nie|nicht|keine?[nmrs]?|jamais|pas|mai|nunca|never)(?:$|[^\p{L}])`)

// negatedBefore reports whether the clause before off forbids what follows.
func negatedBefore(text []byte, off int) bool {
	return negationBeforeRe.Match(clauseBefore(text, off, 48))
}

// affirmed accepts a match that neither the words before it nor a negation inside it deny:
// "never put the token in the URL" and "füge niemals Tokens in die URL ein" are advice.
func affirmed(data []byte, loc []int) bool {
	return !negatedBefore(data, loc[0]) && !negationInsideRe.Match(bytes.ToLower(data[loc[0]:loc[1]]))
}

// scriptAffirmed is affirmed for a script phrase: the clause before must not forbid it,
// and for Japanese and Korean, which deny a verb after it, neither must the words after.
func scriptAffirmed(text []byte, s, e int) bool {
	if negatedBefore(text, s) {
		return false
	}
	return !negationAfterRe.Match(clauseAfter(text, e, 24))
}

// negationAfterRe matches the Japanese and Korean endings that deny the verb before them, and
// the Chinese and Russian words that forbid from after a verb-final phrase.
var negationAfterRe = lazy(`^\s*(?:ない|なく|ないで|ません|な(?:$|[^\p{L}])|禁止|不可|지\s*마|지\s*말|지\s*않|면\s*안|금지|는\s*안)|^\S{0,3}(?:ない|ないで|ません|지\s*마|지\s*말|지\s*않)`)
