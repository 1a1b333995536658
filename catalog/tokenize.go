package catalog

import (
	"strings"
	"unicode"
)

// maxTermLength bounds a term; longer runs of letters are cut, so a hostile
// description cannot make one huge term.
const maxTermLength = 40

// stopwords are the words that say nothing about what a skill is for: function
// words, and the phrasing every skill description shares ("Use when ...").
var stopwords = toSet(`a an and are as at be but by can could do does for from has have how i if in
into is it its me my of on or our please should so than that the their them then there these this
those to up us use used uses using want we what when where which while who why will with would you
your skill skills need needs make let get help someone something anything everything everywhere
somewhere any all some just also very really`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// term is one word of a text: its stem and the word as written (lower case).
type term struct {
	stem, word string
}

// terms splits text into lower-case words at every character that is not a
// letter or a digit (so "pdf-forms" is two words), drops stop words and
// one-letter words, and stems the rest.
func terms(text string, emit func(term)) {
	start := -1
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emitWord(text[start:i], emit)
			start = -1
		}
	}
	if start >= 0 {
		emitWord(text[start:], emit)
	}
}

func emitWord(w string, emit func(term)) {
	w = strings.ToLower(w)
	if len(w) > maxTermLength {
		w = w[:maxTermLength]
	}
	if len(w) < 2 || stopwords[w] {
		return
	}
	emit(term{stem: stem(w), word: w})
}

// stem reduces an English word to a light stem so that inflected forms meet:
// "deployments", "deploying" and "deploy" become "deploy"; "migration",
// "migrating" and "migrate" become "migrat"; "flaky" and "flakiness" become
// "flaki". It only strips common suffixes and never leaves fewer than three
// letters, so distinct short words stay distinct.
func stem(w string) string {
	if !isASCIILower(w) || len(w) <= 3 {
		return w
	}
	w = stripPlural(w)
	for _, s := range suffixes {
		if strings.HasSuffix(w, s.from) && len(w)-len(s.from) >= 3 {
			w = w[:len(w)-len(s.from)] + s.to
			if s.undouble {
				w = undouble(w)
			}
			break
		}
	}
	if strings.HasSuffix(w, "e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	if strings.HasSuffix(w, "y") && len(w) > 3 {
		w = w[:len(w)-1] + "i"
	}
	return w
}

// suffixes are tried in order; the first that fits is stripped.
var suffixes = []struct {
	from, to string
	undouble bool
}{
	{"ational", "at", false}, {"ations", "at", false}, {"ation", "at", false},
	{"nesses", "", false}, {"ness", "", false}, {"ments", "", false}, {"ment", "", false},
	{"ingly", "", true}, {"ings", "", true}, {"ing", "", true}, {"edly", "", true}, {"ed", "", true},
	{"ically", "ic", false}, {"ally", "al", false}, {"ly", "", false},
}

func stripPlural(w string) string {
	switch {
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// undouble turns a doubled final consonant into one ("runn" from "running").
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isASCIILower(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}
