package catalog

import (
	"math"
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
