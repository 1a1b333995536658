package audit

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestNeedsMet shows that looking needed words up where the prefilter found them answers as
// searching the window does, for every rule's needs, on windows of every size.
func TestNeedsMet(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	texts := startTexts(t)
	texts = append(texts, []byte("the user the user theuser aaa user\nconfirmation"), []byte("The USER\nCURL -D @- TOKEN"), []byte(""))
	checked, held := 0, 0
	for _, text := range texts {
		c, h := checkNeedsMet(t, rng, text)
		checked, held = checked+c, held+h
	}
	if checked == 0 || held == 0 || held == checked {
		t.Fatalf("%d windows checked, %d held their needed words: the test did not try both answers", checked, held)
	}
}

// checkNeedsMet compares needsMet after the prefilter with windowHas on random windows of
// text and on windows around a needed word, for every rule with needs; it returns how many
// windows it checked and how many held the needs.
func checkNeedsMet(t *testing.T, rng *rand.Rand, text []byte) (checked, held int) {
	e := compiled()
	s := &scanner{eng: e, cand: &candidates{}}
	u := &unit{text: text}
	e.prefilter(text, s.cand, &s.st)
	lower := u.folded()
	for ri, r := range e.rules {
		if len(r.needAny) == 0 {
			continue
		}
		var wins [][2]int
		for range 3 {
			ws := rng.IntN(len(text) + 1)
			wins = append(wins, [2]int{ws, ws + rng.IntN(len(text)-ws+1)})
		}
		// windows that hold a needed word exactly, or all of it but its last or first byte
		w := r.needAny[rng.IntN(len(r.needAny))]
		word := w[rng.IntN(len(w))]
		if o := bytes.Index(lower, word); o >= 0 {
			e := o + len(word)
			wins = append(wins, [2]int{o, e}, [2]int{o, e - 1}, [2]int{o + 1, e}, [2]int{max(0, o-3), min(len(text), e+3)})
		}
		for _, win := range wins {
			ws, end := win[0], win[1]
			want := windowHas(lower[ws:end], r.needAny)
			if got := s.needsMet(ri, r, u, ws, end); got != want {
				t.Fatalf("%s on [%d:%d] of %q: needsMet %v, windowHas %v", r.ID, ws, end, bounded(string(text), 200), got, want)
			}
			checked++
			if want {
				held++
			}
		}
	}
	return checked, held
}

// TestNeedWords shows that every needed word can be a keyword of the matcher: not empty,
// and lowercase ASCII, which the matcher finds in any case as windowHas does in folded text.
func TestNeedWords(t *testing.T) {
	n := 0
	for _, r := range ruleList {
		for _, words := range r.needAny {
			for _, w := range words {
				n++
				if len(w) == 0 || bytes.ContainsFunc(w, func(c rune) bool { return c >= utf8.RuneSelf || lowerASCII(byte(c)) != byte(c) }) {
					t.Errorf("%s needs %q: needed words must be lowercase ASCII and not empty", r.ID, w)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no rule needs words")
	}
}

// FuzzNeedsMet compares needsMet with windowHas on arbitrary text.
func FuzzNeedsMet(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint64(1))
	}
	f.Add("Do not ask THE USER for confirmation; curl -d @- token", uint64(7))
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		checkNeedsMet(t, rand.New(rand.NewPCG(seed, 3)), []byte(text))
	})
}

// TestLineCursor shows that the cursor finds the line starts that lineStartNear finds, for
// ascending offsets into lines short and longer than maxAnchor, and for an offset that goes
// back.
func TestLineCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	for range 50 {
		var text []byte
		for range rng.IntN(20) {
			text = append(text, bytes.Repeat([]byte("a"), rng.IntN(3*maxAnchor))...)
			text = append(text, '\n')
		}
		text = append(text, "tail"...)
		c := lineCursor{text: text}
		off := 0
		for range 30 {
			off = min(len(text), off+rng.IntN(2*maxAnchor))
			if rng.IntN(10) == 0 {
				off = rng.IntN(off + 1)
			}
			if got, want := c.near(off), lineStartNear(text, off); got != want {
				t.Fatalf("offset %d of a %d-byte text: cursor %d, lineStartNear %d", off, len(text), got, want)
			}
		}
	}
}

// needsInMatch are the rules given needs for speed alone: their needed words lie inside every
// match of their pattern, not only around it as for rules whose needs ask for context.
var needsInMatch = map[string]bool{"SG-EXF-020": true, "SG-INJ-021": true}

// TestNeedsInsideMatches shows that the needed words of the rules that need them inside the
// match are in every match of their pattern, in the rules' examples and the test skills: a
// window without them cannot hold a match, so skipping it finds the same.
func TestNeedsInsideMatches(t *testing.T) {
	texts := startTexts(t)
	matched := map[string]int{}
	for _, r := range ruleList {
		if len(r.needAny) == 0 || r.pat == nil || !needsInMatch[r.ID] {
			continue
		}
		matched[r.ID] += 0
		for _, text := range texts {
			u := &unit{text: text}
			subject := u.folded()
			if r.exact {
				subject = text
			}
			for _, loc := range r.compiled().re.FindAllIndex(subject, -1) {
				matched[r.ID]++
				if !windowHas(u.folded()[loc[0]:loc[1]], r.needAny) {
					t.Errorf("%s matches %q, which holds none of one entry of its needs %q", r.ID, subject[loc[0]:loc[1]], r.needs)
				}
			}
		}
	}
	for id := range needsInMatch {
		if _, ok := matched[id]; !ok {
			t.Errorf("%s has no needs", id)
		}
	}
	for id, n := range matched {
		if n == 0 {
			t.Errorf("%s never matched: nothing was checked", id)
		}
	}
}

// checkNonASCII compares hasNonASCII, which reads eight bytes at a time, with a byte loop.
func checkNonASCII(t *testing.T, b []byte) bool {
	t.Helper()
	want := false
	for _, c := range b {
		want = want || c >= utf8.RuneSelf
	}
	if got := hasNonASCII(b); got != want {
		t.Fatalf("hasNonASCII(%q) = %v, want %v", b, got, want)
	}
	return want
}

// TestHasNonASCII checks hasNonASCII on texts with one byte outside ASCII at every place,
// and on none, for lengths around the eight bytes it reads at once.
func TestHasNonASCII(t *testing.T) {
	for n := 0; n < 40; n++ {
		b := bytes.Repeat([]byte("a"), n)
		if checkNonASCII(t, b) {
			t.Fatalf("%q holds no byte outside ASCII", b)
		}
		for i := range b {
			for _, c := range []byte{0x80, 0xc3, 0xff} {
				b[i] = c
				if !checkNonASCII(t, b) {
					t.Fatalf("%q holds a byte outside ASCII", b)
				}
				b[i] = 'a'
			}
		}
	}
}

// FuzzHasNonASCII compares hasNonASCII with a byte loop on arbitrary bytes.
func FuzzHasNonASCII(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkNonASCII(t, b) })
}
