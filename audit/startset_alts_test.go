package audit

import (
	"reflect"
	"regexp"
	"slices"
	"testing"
)

func TestSplitAlternatives(t *testing.T) {
	tests := []struct {
		src  string
		want []string // nil: not split
	}{
		{`a|b`, []string{`a`, `b`}},
		{`(a|b)|c`, []string{`(a|b)`, `c`}},
		{`[|]x|y`, []string{`[|]x`, `y`}},
		{`[]|]x|y`, []string{`[]|]x`, `y`}},
		{`[^]|]x|y`, []string{`[^]|]x`, `y`}},
		{`[[:alpha:]|]x|y`, []string{`[[:alpha:]|]x`, `y`}},
		{`\|a|b`, []string{`\|a`, `b`}},
		{`(?i)a|(?s)b`, []string{`(?i)a`, `(?s)b`}},
		{`(?:a|b)c|d`, []string{`(?:a|b)c`, `d`}},
		{`a(?i)b|c`, nil},
		{`\Qa|b\E`, nil},
		{`a)|b`, nil},
		{`(a|b`, nil},
		{`[a|b`, nil},
	}
	for _, tt := range tests {
		got, ok := splitAlternatives(tt.src)
		if tt.want == nil {
			if ok {
				t.Errorf("%q: split into %q, want no split", tt.src, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, %v; want %q", tt.src, got, ok, tt.want)
		}
	}
}

// TestAlternativesFindAll compares, for patterns made to exercise the search by alternative
// (flags carried to later alternatives, groups in several alternatives, spaces, letters
// outside ASCII, an alternative preferred over a longer one), the search from start texts with
// the unanchored search.
func TestAlternativesFindAll(t *testing.T) {
	patterns := []string{
		`(?i)\bfoo\s+bar|ba(z)\s+(q)ux|\bfoo`,
		`\bfoo|\bfoo\s+bar`,
		`héllo\s+wörld|(a)(b)?c|(?i)不要\s*告诉`,
		`(?i)x\s+y|(?s)z.w|(?i:Q)r`,
		`(?:ab|cd)\s+(e)|ab\s+f|(g)`,
		`(?i)не\s+говори|kelvin|[别別]让|(скрой)`,
	}
	texts := []string{"foo bar baz qux BAZ\tQUX foo\nbar xfoo", "HÉLLO wörld héllo\twörld abc ac 不要 告诉 不要告诉",
		"X  y z\nw zqw Qr qr", "ab e cd\te ab f g",
		"Не говори, НЕ ГОВОРИ, не\tговори; \u212aelvin KELVIN; 别让 別让; Скрой СКРОЙ"}
	for _, src := range patterns {
		re := regexp.MustCompile(src)
		st := newStarts(re)
		if st == nil || st.alts == nil {
			t.Errorf("%q: no search by alternative", src)
			continue
		}
		for _, text := range texts {
			for _, sub := range []bool{false, true} {
				got, want := st.findAll([]byte(text), -1, sub), plainFindAll(re, []byte(text), -1, sub)
				if (len(got) != 0 || len(want) != 0) && !reflect.DeepEqual(got, want) {
					t.Errorf("%q on %q (submatches %v):\nstarts %v\nregexp %v", src, text, sub, got, want)
				}
			}
		}
	}
}

// TestScriptPhrasesStarts compares, for every script phrase, the search from its start texts
// with the plain search on the rules' examples and the language tests' texts.
func TestScriptPhrasesStarts(t *testing.T) {
	var texts []string
	for _, r := range ruleList {
		texts = append(append(texts, r.fire...), r.pass...)
	}
	for _, c := range langVariants {
		texts = append(texts, c.text)
	}
	for _, c := range langQuoted {
		texts = append(texts, c.text)
	}
	searched := 0
	for _, p := range scriptPhrases() {
		p.search.once.Do(func() { p.search.st = newStarts(p.re.get()) })
		if p.search.st == nil {
			continue
		}
		searched++
		for _, text := range texts {
			got, want := p.findAll([]byte(text)), p.re.FindAllIndex([]byte(text), maxPerRule)
			if (len(got) != 0 || len(want) != 0) && !reflect.DeepEqual(got, want) {
				t.Errorf("%s phrase %q on %q:\nstarts %v\nregexp %v", p.rule, p.cues, text, got, want)
			}
		}
	}
	if searched < len(scriptPhrases())/2 {
		t.Errorf("only %d of %d script phrases are searched from start texts", searched, len(scriptPhrases()))
	}
}
