package catalog

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const stepsPlain = `Steps:
1. Read the csv file with a header row.
2. Trim spaces in every cell and drop empty columns.
3. Write the cleaned file next to the original.`

const stepsMarkdown = `## Steps

- **Read** the CSV file with a _header row_.
- Trim spaces in every cell, and drop *empty* columns!
- Write the ` + "`cleaned`" + ` file next to the original.`

func TestBodyWordsIgnoresFormatting(t *testing.T) {
	a, b := BodyWords(stepsPlain), BodyWords(stepsMarkdown)
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Fatalf("formatting changed the words:\n%q\n%q", a, b)
	}
	if a[0] != "steps" || a[1] != "read" {
		t.Fatalf("words start %q, want steps read (list numbers dropped)", a[:2])
	}
}

func TestJaccardSameStepsOtherFormatting(t *testing.T) {
	got := Jaccard(ShinglesOf(stepsPlain, ShingleSize), ShinglesOf(stepsMarkdown, ShingleSize))
	if got != 1 {
		t.Fatalf("Jaccard = %v, want 1 for the same steps", got)
	}
}

func TestJaccardDifferentText(t *testing.T) {
	other := "Resize every image in the folder to 800 pixels wide and save it as webp."
	got := Jaccard(ShinglesOf(stepsPlain, ShingleSize), ShinglesOf(other, ShingleSize))
	if got > 0.05 {
		t.Fatalf("Jaccard = %v for unrelated texts, want about 0", got)
	}
}

func TestJaccardPartial(t *testing.T) {
	a := ShinglesOf("one two three four five six", 3) // 4 shingles
	b := ShinglesOf("one two three four five seven", 3)
	// a and b share "one two three", "two three four", "three four five": 3 of 5.
	if got := Jaccard(a, b); math.Abs(got-0.6) > 1e-9 {
		t.Fatalf("Jaccard = %v, want 0.6", got)
	}
}

func TestShinglesShortAndEmpty(t *testing.T) {
	if n := len(ShinglesOf("just two", 3)); n != 1 {
		t.Fatalf("a text shorter than a shingle gives %d shingles, want 1", n)
	}
	if n := len(ShinglesOf("  ## -- **  ", 3)); n != 0 {
		t.Fatalf("markup alone gives %d shingles, want 0", n)
	}
	if got := Jaccard(Shingles{}, Shingles{}); got != 0 {
		t.Fatalf("Jaccard of two empty sets = %v, want 0", got)
	}
}

func TestSharedTerms(t *testing.T) {
	sim, shared := SharedTerms(TermSet("Clean CSV files: trim columns"), TermSet("csv cleaner for messy columns"))
	if strings.Join(shared, ",") != "clean,columns,csv" && strings.Join(shared, ",") != "columns,csv" {
		t.Fatalf("shared = %q", shared)
	}
	if sim <= 0 || sim >= 1 {
		t.Fatalf("similarity = %v, want between 0 and 1", sim)
	}
}

// TestJaccardMatchesSets compares the merge of sorted shingles with the ratio counted on sets,
// on random texts that share some of their words.
func TestJaccardMatchesSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vocab := strings.Fields("check run build test lint deploy the a config file step notes review")
	text := func() string {
		var w []string
		for range rng.IntN(60) {
			w = append(w, vocab[rng.IntN(len(vocab))])
		}
		return strings.Join(w, " ")
	}
	for round := range 300 {
		a, b := ShinglesOf(text(), ShingleSize), ShinglesOf(text(), ShingleSize)
		if !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != len(a) {
			t.Fatalf("round %d: shingles not ascending without repeats: %v", round, a)
		}
		set := map[uint32]bool{}
		for _, x := range a {
			set[x] = true
		}
		common := 0
		for _, x := range b {
			if set[x] {
				common++
			}
		}
		want := 0.0
		if union := len(a) + len(b) - common; union > 0 {
			want = float64(common) / float64(union)
		}
		if got := Jaccard(a, b); math.Abs(got-want) > 1e-12 {
			t.Fatalf("round %d: Jaccard = %v, want %v", round, got, want)
		}
	}
}

// TestTermJaccardMatchesSharedTerms checks that the count alone gives SharedTerms' ratio.
func TestTermJaccardMatchesSharedTerms(t *testing.T) {
	texts := []string{"", "Lint the code before review", "Review code changes", "reviewing linted code",
		"Deploy", "deploys and deployments of the code"}
	for _, a := range texts {
		for _, b := range texts {
			want, _ := SharedTerms(TermSet(a), TermSet(b))
			if got := TermJaccard(TermSet(a), TermSet(b)); got != want {
				t.Errorf("TermJaccard(%q, %q) = %v, SharedTerms says %v", a, b, got, want)
			}
		}
	}
}
