package audit

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"testing"
)

// startTexts gathers texts to search: every rule's examples, the fuzz seeds, generated skills
// and, unless the race detector slows every search down, the files under testdata.
func startTexts(t testing.TB) [][]byte {
	var texts [][]byte
	for _, r := range ruleList {
		for _, s := range append(append([]string{}, r.fire...), r.pass...) {
			texts = append(texts, []byte(s))
		}
	}
	for _, s := range fuzzSeeds {
		texts = append(texts, []byte(s))
	}
	skills, _ := benchSkills(20)
	for _, s := range skills {
		for _, f := range s {
			texts = append(texts, f.Data)
		}
	}
	if raceEnabled {
		return texts
	}
	err := fs.WalkDir(os.DirFS("testdata"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile("testdata/" + p)
		texts = append(texts, data[:min(len(data), 2<<10)])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// plainFindAll is the unanchored search that starts must reproduce.
func plainFindAll(re *regexp.Regexp, b []byte, limit int, submatches bool) [][]int {
	if submatches {
		return re.FindAllSubmatchIndex(b, limit)
	}
	return re.FindAllIndex(b, limit)
}

// checkStarts compares, for every rule whose pattern has start texts, the search from them
// with the unanchored search on b, folded as the rule reads it.
func checkStarts(t *testing.T, b []byte, limit int, submatches ...bool) {
	t.Helper()
	lower := make([]byte, len(b))
	for i, c := range b {
		lower[i] = lowerTable[c]
	}
	for _, r := range ruleList {
		if r.compiled().starts == nil {
			continue
		}
		subject := lower
		if r.exact {
			subject = b
		}
		for _, sub := range submatches {
			got := r.compiled().starts.findAll(subject, limit, sub)
			want := plainFindAll(r.compiled().re, subject, limit, sub)
			if len(got) != 0 || len(want) != 0 {
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s (submatches %v) on %q:\nstarts %v\nregexp %v", r.ID, sub, bounded(string(b), 300), got, want)
				}
			}
		}
	}
}

// TestStartsFindAll shows that searching from the start texts finds exactly what the
// unanchored search finds: on whole texts, on texts cut at any place (so that the byte before
// a start is a word character, a piece of a character or nothing), and with few matches kept.
func TestStartsFindAll(t *testing.T) {
	n := 0
	for _, r := range ruleList {
		if r.compiled().starts != nil {
			n++
		}
	}
	if n < 30 {
		t.Fatalf("only %d patterns have start texts; the analysis lost its reach", n)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	before := []string{"x", "é", "\xc3"}
	for _, text := range startTexts(t) {
		checkStarts(t, text, -1, false, true)
		switch k := rng.IntN(5); {
		case k == 0:
			checkStarts(t, text, 1+rng.IntN(3), rng.IntN(2) == 0)
		case k <= 2 && len(text) > 1:
			i := rng.IntN(len(text))
			checkStarts(t, text[i:i+rng.IntN(len(text)-i)], -1, rng.IntN(2) == 0)
		default:
			checkStarts(t, append([]byte(before[rng.IntN(len(before))]), text...), -1, rng.IntN(2) == 0)
		}
	}
}

// FuzzStartsFindAll compares the two searches on arbitrary text.
func FuzzStartsFindAll(f *testing.F) {
	for _, r := range ruleList {
		for _, s := range r.fire {
			f.Add(s)
			f.Add("x" + s)
		}
	}
	f.Add("sk-ant-api03-\u212a sendSend send \xc3send the\ttranscript to https://x.example/")
	f.Fuzz(func(t *testing.T, text string) {
		checkStarts(t, []byte(text), -1, false, true)
	})
}
