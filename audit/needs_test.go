package audit

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestWindowHolds shows that looking needed words up in where they occur answers as
// searching the window does, for every rule's needs, on windows of every size.
func TestWindowHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	texts := startTexts(t)
	texts = append(texts, []byte("the user the user theuser aaa user\nconfirmation"), []byte(""))
	checked := 0
	for _, text := range texts {
		u := &unit{text: text}
		lower := u.folded()
		for _, r := range ruleList {
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
				if got := u.windowHolds(ws, end, r.needAny); got != want {
					t.Fatalf("%s on [%d:%d] of %q: windowHolds %v, windowHas %v", r.ID, ws, end, bounded(string(text), 200), got, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no rule has needed words")
	}
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
