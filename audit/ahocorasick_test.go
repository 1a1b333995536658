package audit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type kwHit struct{ kw, end int }

func naiveFind(keywords []string, text string) []kwHit {
	lower := strings.ToLower(text)
	var out []kwHit
	for end := 1; end <= len(text); end++ {
		for k, w := range keywords {
			if end >= len(w) && lower[end-len(w):end] == w {
				out = append(out, kwHit{k, end})
			}
		}
	}
	return out
}

func matcherFind(m *matcher, text string) []kwHit {
	var out []kwHit
	var tail []kwEnd
	m.scan([]byte(text), &tail, func(kw, end int) { out = append(out, kwHit{kw, end}) })
	return out
}

func sortHits(h []kwHit) []kwHit {
	// naiveFind orders by end then keyword; the matcher orders by end and
	// then by the state's output list, so compare as sets per end.
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && (h[j].end < h[j-1].end || h[j].end == h[j-1].end && h[j].kw < h[j-1].kw); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
	return h
}

func TestMatcher(t *testing.T) {
	tests := []struct {
		name     string
		keywords []string
		text     string
	}{
		{"overlap", []string{"he", "she", "his", "hers"}, "ushers and HIS sheep"},
		{"nested", []string{"a", "aa", "aaa"}, "aaaa"},
		{"case", []string{"curl", "base64"}, "CuRl | BASE64 -d"},
		{"suffix outputs", []string{"env", "printenv", "nv"}, "printenv; env"},
		{"none", []string{"xyz"}, "nothing here"},
		{"empty text", []string{"a"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatcher(tt.keywords)
			got := sortHits(matcherFind(m, tt.text))
			want := sortHits(naiveFind(tt.keywords, tt.text))
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(kwHit{})); diff != "" {
				t.Errorf("hits (-naive +matcher):\n%s", diff)
			}
		})
	}
}

func TestMatcherRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "abcAB -|"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for i := range 200 {
		var kws []string
		for range 1 + r.IntN(8) {
			kws = append(kws, strings.ToLower(word(1+r.IntN(4))))
		}
		text := word(r.IntN(60))
		got := sortHits(matcherFind(newMatcher(kws), text))
		want := sortHits(naiveFind(kws, text))
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(kwHit{})); diff != "" {
			t.Fatalf("case %d keywords %q text %q (-naive +matcher):\n%s", i, kws, text, diff)
		}
	}
}

// TestKeywordsLowercase guards the matcher's contract: keywords are
// lowercase ASCII, since the text is folded to lowercase ASCII.
func TestKeywordsLowercase(t *testing.T) {
	for _, r := range Rules() {
		if r.Keywords == nil && rule(r.ID).pat != nil && !rule(r.ID).descOnly {
			t.Errorf("%s: a pattern rule without keywords never runs", r.ID)
		}
		for _, k := range r.Keywords {
			w, _ := parseKeyword(k)
			if w == "" || w != strings.ToLower(w) || strings.IndexFunc(w, func(c rune) bool { return c > 0x7f }) >= 0 {
				t.Errorf("%s: keyword %q is not lowercase ASCII", r.ID, k)
			}
		}
	}
}

// plainFind is matcherFind through scanPlain: every hit in the order scanPlain emits them.
func plainFind(m *matcher, text []byte) []kwHit {
	var out []kwHit
	m.scanPlain(text, func(kw, end int) { out = append(out, kwHit{kw, end}) })
	return out
}

// checkSplitScan fails when scan, which reads a long text as two halves, emits other hits or
// in another order than scanPlain; it returns how many hits there were.
func checkSplitScan(t *testing.T, m *matcher, text []byte) int {
	t.Helper()
	tail := []kwEnd{{1, 2}} // left over from an earlier text: must not show
	var got []kwHit
	m.scan(text, &tail, func(kw, end int) { got = append(got, kwHit{kw, end}) })
	want := plainFind(m, text)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(kwHit{})); diff != "" {
		t.Fatalf("%d-byte text %q: hits (-scanPlain +scan):\n%s", len(text), bounded(string(text), 120), diff)
	}
	return len(want)
}

// TestSplitScan shows that scanning a text as two halves emits what one pass does, in the
// same order, for the audit's keywords over its test texts, and for small keyword sets over
// random texts whose keywords straddle the middle.
func TestSplitScan(t *testing.T) {
	long := 0
	for _, text := range startTexts(t) {
		if len(text) >= splitMin {
			long++
		}
		checkSplitScan(t, compiled().m, text)
	}
	if long == 0 {
		t.Fatal("no test text is long enough to be split")
	}
	r := rand.New(rand.NewPCG(5, 8))
	alphabet := "abcAB -|"
	word := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return b
	}
	hits := 0
	for range 300 {
		var kws []string
		for range 1 + r.IntN(8) {
			kws = append(kws, strings.ToLower(string(word(1+r.IntN(12)))))
		}
		hits += checkSplitScan(t, newMatcher(kws), word(splitMin+r.IntN(3*splitMin)))
	}
	if hits == 0 {
		t.Fatal("the random texts held no keyword")
	}
}

// FuzzSplitScan compares scan with scanPlain on arbitrary text, with the audit's keywords.
func FuzzSplitScan(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(strings.Repeat(s, 1+splitMin/max(1, len(s))))
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkSplitScan(t, compiled().m, []byte(text))
	})
}
