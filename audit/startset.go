package audit

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// starts lists the texts that every match of a pattern begins with, so that a search need only
// try the pattern, anchored, where one of them begins, instead of running the pattern's
// automaton over every byte. A search so made finds exactly the matches of the unanchored
// search: the leftmost match of a pattern begins at the first place where an anchored match
// exists, and the match preferred there is the same in both.
type starts struct {
	// first holds, for each byte, startAny when an entry begins with it, and startWordOnly
	// when every such entry demands a word start.
	first [256]uint8
	lits  [][]starts1 // first byte -> entries beginning with it
	// head and after are compiled when the first match is tried.
	head  *lazyRegexp // the pattern anchored, for a match at the start of the text
	after *lazyRegexp // the pattern after one character, so that `\b` sees what precedes
	// alts holds, for a pattern that is an alternation, each alternative to be tried alone
	// where one of its own texts begins (startset_alts.go); nil tries the whole pattern.
	alts    []startAlt
	ngroups int // the pattern's groups, for the submatches of an alternative
}

// starts1 is one text a match may begin with; word demands that no word character come right
// before it, as a `\b` before the text does.
type starts1 struct {
	lit  []byte
	word bool
	fold bool  // lit is in lowercase and the text may hold it in any case
	alt  int32 // the alternative of the pattern that begins with lit, when alts are kept
}

// Bounds of the analysis: a pattern that may begin with more texts is searched the ordinary
// way, and longer texts are cut.
const (
	maxStartLits = 256 // texts a pattern may begin with
	maxStartLen  = 16  // bytes of one text
)

// newStarts analyzes re and returns its start texts, or nil when some match may begin with
// something else than a short list of texts (of ASCII, where case is ignored).
func newStarts(re *regexp.Regexp) *starts {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	simple := parsed.Simplify()
	st := &starts{lits: make([][]starts1, 256), head: lazy(`^(?:` + re.String() + `)`),
		after: lazy(`^(?s:.)(?:` + re.String() + `)`), ngroups: re.NumSubexp()}
	if set, alts := alternativeStarts(re.String()); alts != nil && st.addAll(set) {
		st.alts = alts
		return st
	}
	st.lits, st.first = make([][]starts1, 256), [256]uint8{}
	set, _, ok := prefixes(simple, maxStartLen)
	if !ok || len(set) == 0 || !st.addAll(set) {
		return nil
	}
	return st
}

// addAll adds the entries of set; it reports false when one is empty, which a match may
// begin anywhere with.
func (st *starts) addAll(set []starts1) bool {
	for _, e := range set {
		if len(e.lit) == 0 {
			return false
		}
		// Before a character that is not a word character, `\b` demands one: the entry
		// then narrows nothing that is cheap to test here.
		e.word = e.word && isWordByte(e.lit[0])
		st.add(e.lit[0], e)
		if c := e.lit[0]; e.fold && 'a' <= c && c <= 'z' {
			st.add(c-'a'+'A', e)
		}
		if e.lit[0] == ' ' {
			for _, c := range []byte("\t\n\f\r\v") {
				st.add(c, e)
			}
		}
	}
	return len(set) > 0
}

const (
	startAny      uint8 = 1 << iota // some entry begins with the byte
	startWordOnly                   // every entry that does demands a word start
)

func (st *starts) add(c byte, e starts1) {
	if st.first[c] == 0 {
		st.first[c] = startAny | startWordOnly
	}
	if !e.word {
		st.first[c] &^= startWordOnly
	}
	st.lits[c] = append(st.lits[c], e)
}

// prefixes returns texts one of which every match of re begins with, none longer than room
// bytes; exact reports that they are exactly the texts re matches, so that what follows re may
// extend them. A text may be empty only where re may match nothing.
func prefixes(re *syntax.Regexp, room int) (set []starts1, exact, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return literalPrefix(re, room)
	case syntax.OpCharClass:
		return classPrefixes(re.Rune)
	case syntax.OpCapture:
		return prefixes(re.Sub[0], room)
	case syntax.OpEmptyMatch:
		return []starts1{{}}, true, true
	case syntax.OpPlus:
		set, _, ok = prefixes(re.Sub[0], room)
		return set, false, ok
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false, false
		}
		set, exact, ok = prefixes(re.Sub[0], room)
		return set, exact && re.Min == 1 && re.Max == 1, ok
	case syntax.OpAlternate:
		return alternatePrefixes(re.Sub, room)
	case syntax.OpConcat:
		return concatPrefixes(re.Sub, room)
	}
	return nil, false, false
}

// literalPrefix returns the texts a literal begins with, none longer than room bytes. A
// literal that ignores case keeps its ASCII letters in lowercase and is marked, as the search
// then folds the ASCII of the text; a letter with a case outside ASCII, such as Cyrillic н or
// the Kelvin sign that k folds to, gives a text for each of its forms while they are few.
// Characters without case, such as Chinese ones, are their UTF-8 bytes.
func literalPrefix(re *syntax.Regexp, room int) ([]starts1, bool, bool) {
	fold := re.Flags&syntax.FoldCase != 0
	texts, exact := [][]byte{{}}, true
	for _, r := range re.Rune {
		forms := []rune{r}
		if fold {
			forms = foldForms(r)
		}
		if len(texts)*len(forms) > maxFoldTexts || !fits(texts, forms, room) {
			exact = false
			break
		}
		next := make([][]byte, 0, len(texts)*len(forms))
		for _, t := range texts {
			for _, f := range forms {
				next = append(next, utf8.AppendRune(t[:len(t):len(t)], f))
			}
		}
		texts = next
	}
	set := make([]starts1, 0, len(texts))
	for _, t := range texts {
		set = append(set, starts1{lit: t, fold: fold})
	}
	return set, exact, len(texts[0]) > 0 || exact
}

// maxFoldTexts bounds the texts a literal that ignores case begins with.
const maxFoldTexts = 16

// foldForms returns the forms of r that a search ignoring case matches, ASCII ones in
// lowercase.
func foldForms(r rune) []rune {
	forms := []rune{lowerRune(r)}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f = lowerRune(f); !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms
}

func lowerRune(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(lowerASCII(byte(r)))
	}
	return r
}

// fits reports whether every text stays within room bytes with any of forms after it.
func fits(texts [][]byte, forms []rune, room int) bool {
	for _, t := range texts {
		for _, f := range forms {
			if len(t)+utf8.RuneLen(f) > room {
				return false
			}
		}
	}
	return true
}

// classPrefixes returns the characters of a small class, each as its UTF-8 bytes.
// Spaces of every kind are one byte, ' ', which hasPrefix takes for any of them: `\s` then
// begins one text, not five, which leaves room for longer texts.
func classPrefixes(ranges []rune) ([]starts1, bool, bool) {
	var set []starts1
	space, n := false, 0
	for i := 0; i+1 < len(ranges); i += 2 {
		if n += int(ranges[i+1]-ranges[i]) + 1; n >= 16 {
			return nil, false, false
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			if r >= utf8.RuneSelf {
				set = append(set, starts1{lit: utf8.AppendRune(nil, r)})
				continue
			}
			c := byte(r)
			if isSpaceByte(c) || c == '\f' || c == '\v' {
				if space {
					continue
				}
				c, space = ' ', true
			}
			set = append(set, starts1{lit: []byte{c}})
		}
	}
	return set, true, len(set) > 0
}

func alternatePrefixes(subs []*syntax.Regexp, room int) ([]starts1, bool, bool) {
	var set []starts1
	exact := true
	for _, sub := range subs {
		s, e, ok := prefixes(sub, room)
		if !ok {
			return nil, false, false
		}
		set, exact = append(set, s...), exact && e
	}
	if len(set) > maxStartLits {
		set, ok := shortened(set, maxStartLits)
		return set, false, ok
	}
	return set, exact, true
}

// shortened cuts the texts of set to their first n bytes, for the longest n that leaves no
// more than limit different texts: a shorter text begins every match the longer one
// begins. Texts of one alternative that become one demand a word start only if all of them
// did, and ignore case if any of them did. It reports false when even single bytes are too
// many.
func shortened(set []starts1, limit int) ([]starts1, bool) {
	for n := maxStartLen; n >= 1; n-- {
		out := make([]starts1, 0, limit)
		index := map[string]int{}
		for _, e := range set {
			lit := e.lit[:min(n, len(e.lit))]
			key := string(lit) + "\x00" + string(rune(e.alt))
			if i, ok := index[key]; ok {
				out[i].word = out[i].word && e.word
				out[i].fold = out[i].fold || e.fold
				continue
			}
			if len(out) == limit {
				out = nil
				break
			}
			index[key] = len(out)
			out = append(out, starts1{lit: lit, word: e.word, fold: e.fold, alt: e.alt})
		}
		if out != nil {
			return out, true
		}
	}
	return nil, false
}

// concatPrefixes returns the texts of a concatenation: those of its first part, extended by
// those of the rest while the first part's are exact. A part that may match nothing splits
// the texts in two: with it and without it. A leading `\b` marks the texts that follow it.
func concatPrefixes(subs []*syntax.Regexp, room int) ([]starts1, bool, bool) {
	if len(subs) == 0 {
		return []starts1{{}}, true, true
	}
	first, rest := subs[0], subs[1:]
	switch first.Op {
	case syntax.OpWordBoundary:
		set, exact, ok := concatPrefixes(rest, room)
		for i := range set {
			set[i].word = true
		}
		return set, exact, ok
	case syntax.OpQuest:
		with := append([]*syntax.Regexp{first.Sub[0]}, rest...)
		return unionPrefixes(concatPrefixes(with, room))(concatPrefixes(rest, room))
	case syntax.OpStar:
		set, _, ok := prefixes(first.Sub[0], room)
		return unionPrefixes(set, false, ok)(concatPrefixes(rest, room))
	}
	head, exact, ok := prefixes(first, room)
	if !ok || !exact {
		return head, false, ok
	}
	shortest := room
	for _, h := range head {
		shortest = min(shortest, room-len(h.lit))
	}
	tail, exact, ok := concatPrefixes(rest, shortest)
	if !ok || len(head)*len(tail) > maxStartLits {
		return head, false, true
	}
	set := make([]starts1, 0, len(head)*len(tail))
	for _, a := range head {
		for _, b := range tail {
			lit := append(append([]byte(nil), a.lit...), b.lit...)
			set = append(set, starts1{lit: lit, word: a.word || len(a.lit) == 0 && b.word, fold: a.fold || b.fold})
		}
	}
	return set, exact, true
}

// unionPrefixes joins the texts of two alternatives that follow one another in the source.
func unionPrefixes(a []starts1, aExact, aOK bool) func([]starts1, bool, bool) ([]starts1, bool, bool) {
	return func(b []starts1, bExact, bOK bool) ([]starts1, bool, bool) {
		if !aOK || !bOK {
			return nil, false, false
		}
		if set := append(a, b...); len(set) > maxStartLits {
			set, ok := shortened(set, maxStartLits)
			return set, false, ok
		}
		return append(a, b...), aExact && bExact, true
	}
}

// at reports whether a match may begin at offset p of b.
func (st *starts) at(b []byte, p int) bool {
	for _, e := range st.lits[b[p]] {
		if hasPrefix(b[p:], e.lit, e.fold) && (!e.word || p == 0 || !isWordByte(b[p-1])) {
			return true
		}
	}
	return false
}

// hasPrefix reports whether b begins with lit, in any ASCII case when fold is set; a space in
// lit stands for a space of any kind.
func hasPrefix(b, lit []byte, fold bool) bool {
	if len(b) < len(lit) {
		return false
	}
	for i, c := range lit {
		d := b[i]
		if fold {
			d = lowerTable[d]
		}
		if d != c && (c != ' ' || !isSpaceByte(d) && d != '\f' && d != '\v') {
			return false
		}
	}
	return true
}

// findAll returns what re.FindAllIndex(b, limit) returns, or FindAllSubmatchIndex when
// submatches is set, for the pattern st was made from: a match is tried only where one of its
// start texts begins. Matches are never empty, since every start text holds a byte.
func (st *starts) findAll(b []byte, limit int, submatches bool) [][]int {
	if limit < 0 {
		limit = len(b) + 1
	}
	var out [][]int
	for p := 0; p < len(b) && len(out) < limit; p++ {
		switch f := st.first[b[p]]; {
		case f == 0, f&startWordOnly != 0 && p > 0 && isWordByte(b[p-1]), !st.at(b, p):
			continue
		}
		loc := st.matchAt(b, p, submatches)
		if loc == nil {
			continue
		}
		out = append(out, loc)
		p = loc[1] - 1
	}
	return out
}

// matchAt returns the match of the pattern that begins at offset p of b, if any, with offsets
// in b. Past the start of b, the pattern runs from the character before p, which it consumes
// first, so that assertions at p see that character as the unanchored search does; a byte
// that is not the start of a character reads as one invalid character, which like the
// character it belongs to is no word character.
func (st *starts) matchAt(b []byte, p int, submatches bool) []int {
	if st.alts != nil {
		return st.altMatchAt(b, p, submatches)
	}
	re, from := st.head, p
	if p > 0 {
		re, from = st.after, p-1
	}
	return matchFrom(re.get(), b, p, from, submatches)
}

// matchFrom is matchAt with the pattern re to run from offset from.
func matchFrom(re *regexp.Regexp, b []byte, p, from int, submatches bool) []int {
	var loc []int
	if submatches {
		loc = re.FindSubmatchIndex(b[from:])
	} else {
		loc = re.FindIndex(b[from:])
	}
	if loc == nil {
		return nil
	}
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += from
		}
	}
	loc[0] = p
	return loc
}
