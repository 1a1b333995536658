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
	m.scan([]byte(text), func(kw, end int) { out = append(out, kwHit{kw, end}) })
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
		if r.Keywords == nil && rule(r.ID).re != nil && !rule(r.ID).descOnly {
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
