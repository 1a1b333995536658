package main

import (
	"fmt"
	"io"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// writeOverlaps prints, after a proposal or revision, the skills and candidates it resembles
// most, and what to do about a likely duplicate.
func writeOverlaps(w io.Writer, id string, overlaps []ledger.Overlap) {
	for _, o := range overlaps {
		mark := "overlaps"
		if o.Duplicate {
			mark = "likely duplicate of"
		}
		fmt.Fprintf(w, "%s: %s %s (score %.2f): %s\n", id, mark, sanitize(o.Label()), o.Score, sanitize(oneLine(o.Reason, 200)))
	}
	if len(overlaps) > 0 {
		fmt.Fprintf(w, "  consider patching %s instead (`skillgit propose` on its folder, or `skillgit revise`), then `skillgit reject %s`\n",
			sanitize(overlaps[0].Label()), id)
	}
}

// duplicateLines are the review notes of a likely duplicate, one line each.
func duplicateLines(c *lifecycle.Candidate) []string {
	var out []string
	for _, o := range c.Duplicates {
		out = append(out, fmt.Sprintf("likely duplicate of %s (score %.2f): %s", oneLine(o.Label(), 120), o.Score, oneLine(o.Reason, 200)))
	}
	return out
}
