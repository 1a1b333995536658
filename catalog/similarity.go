package catalog

import (
	"hash/fnv"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// ShingleSize is how many words make one shingle of a skill's body.
const ShingleSize = 3

// maxShingleWords bounds how many words of a body are shingled, so a huge body costs no more
// than a large one.
const maxShingleWords = 20000

// Shingles is the set of hashed word n-grams of a text, ascending and without repeats: two
// sets are compared by one merge of their sorted hashes, several times faster than probing a
// map, which matters when a pack of 1,000 skills is compared with every skill. A hash takes 32
// bits: a batch keeps the shingles of ten thousand skills, and two bodies of a thousand
// shingles each share a hash by chance about once in four thousand comparisons, a change to
// their likeness of a tenth of a percent.
type Shingles []uint32

// BodyWords returns the words of a Markdown text as they read: lowercase letters and digits,
// with punctuation and Markdown markup (headings, list markers, emphasis, code fences, link
// brackets) dropped, and list numbers such as "1." left out, so that the same steps written
// with other formatting give the same words.
func BodyWords(text string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(text[start:end])
		start = -1
		if isListNumber(w) || len(out) >= maxShingleWords {
			return
		}
		out = append(out, w)
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// isListNumber reports whether w is a short run of digits, as list items are numbered.
func isListNumber(w string) bool {
	if len(w) > 2 {
		return false
	}
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ShinglesOf returns the word n-grams of size n of a Markdown text's words (BodyWords); a text
// shorter than n words is one shingle, and a text without words has none.
func ShinglesOf(text string, n int) Shingles {
	words := BodyWords(text)
	out := Shingles{}
	if len(words) == 0 {
		return out
	}
	if n < 1 {
		n = 1
	}
	if len(words) < n {
		return append(out, hashWords(words))
	}
	// Made at its size at once: a batch keeps the shingles of thousands of skills.
	out = make(Shingles, 0, len(words)-n+1)
	for i := 0; i+n <= len(words); i++ {
		out = append(out, hashWords(words[i:i+n]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// hashWords hashes a shingle's words into 32 bits: the two halves of their 64-bit FNV-1a hash
// folded together.
func hashWords(words []string) uint32 {
	h := fnv.New64a()
	for _, w := range words {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	sum := h.Sum64()
	return uint32(sum>>32) ^ uint32(sum)
}

// Jaccard returns the size of the intersection of a and b over the size of their union: 1 for
// the same shingles, 0 for none in common or when both are empty.
func Jaccard(a, b Shingles) float64 {
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			common, i, j = common+1, i+1, j+1
		}
	}
	union := len(a) + len(b) - common
	if union == 0 {
		return 0
	}
	return float64(common) / float64(union)
}

// TermSet returns the distinct terms of a text as the matcher reads names and descriptions,
// each stem with the first word it came from.
func TermSet(text string) map[string]string {
	out := map[string]string{}
	terms(text, func(t term) {
		if _, ok := out[t.stem]; !ok {
			out[t.stem] = t.word
		}
	})
	return out
}

// TermJaccard returns the Jaccard similarity of two term sets, as SharedTerms does, without
// listing the words: comparing a proposal with a thousand others needs the words of the few
// that overlap only.
func TermJaccard(a, b map[string]string) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	common := 0
	for st := range a {
		if _, ok := b[st]; ok {
			common++
		}
	}
	if union := len(a) + len(b) - common; union > 0 {
		return float64(common) / float64(union)
	}
	return 0
}

// SharedTerms returns the Jaccard similarity of two term sets and the words they share, sorted.
func SharedTerms(a, b map[string]string) (float64, []string) {
	var shared []string
	for st, w := range a {
		if _, ok := b[st]; ok {
			shared = append(shared, w)
		}
	}
	sort.Strings(shared)
	union := len(a) + len(b) - len(shared)
	if union == 0 {
		return 0, nil
	}
	return float64(len(shared)) / float64(union), shared
}
