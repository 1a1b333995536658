package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillgit/skillgit/lifecycle"
)

// reviewFile is one file a candidate changes, with the lines its diff adds and removes.
type reviewFile struct {
	Path    string `json:"path"`
	Status  string `json:"status"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	// Binary is set for a file whose diff has no lines.
	Binary bool `json:"binary,omitempty"`
}

// lineCounts is what a diff adds to and removes from one file.
type lineCounts struct {
	added, removed int
	binary         bool
}

// diffCounts counts the added and removed lines of each file of a unified diff, by the path
// after "b/" in its "diff --git" line (the "a/" path for a deleted file).
func diffCounts(diff string) map[string]lineCounts {
	counts := map[string]lineCounts{}
	file, inHunk := "", false
	for line := range strings.Lines(diff) {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			file, inHunk = diffPath(line), false
			counts[file] = lineCounts{}
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case !inHunk:
			if strings.HasPrefix(line, "Binary files ") {
				counts[file] = lineCounts{binary: true}
			}
		case strings.HasPrefix(line, "+"):
			c := counts[file]
			c.added++
			counts[file] = c
		case strings.HasPrefix(line, "-"):
			c := counts[file]
			c.removed++
			counts[file] = c
		}
	}
	return counts
}

// diffPath is the path a "diff --git a/P b/P" line names. Paths with spaces are split where
// the " b/" of the second one begins, which holds since both name the same file.
func diffPath(line string) string {
	rest := strings.TrimSuffix(strings.TrimPrefix(line, "diff --git "), "\n")
	rest = strings.TrimPrefix(rest, "a/")
	if i := strings.Index(rest, " b/"); i >= 0 {
		return rest[:i]
	}
	return rest
}

// reviewFiles joins the files of a review with the line counts of its diff.
func reviewFiles(rv *lifecycle.Review) []reviewFile {
	counts := diffCounts(rv.Diff)
	files := make([]reviewFile, 0, len(rv.Files))
	for _, f := range rv.Files {
		c := counts[f.Path]
		files = append(files, reviewFile{Path: f.Path, Status: f.Status, Added: c.added, Removed: c.removed, Binary: c.binary})
	}
	return files
}

// diffTotals is the number of lines that files add and remove.
func diffTotals(files []reviewFile) (added, removed int) {
	for _, f := range files {
		added += f.Added
		removed += f.Removed
	}
	return added, removed
}

// writeStat writes each file with the lines it adds and removes, then the totals.
func writeStat(w io.Writer, files []reviewFile) {
	width := 0
	for _, f := range files {
		width = max(width, len(sanitize(f.Path)))
	}
	for _, f := range files {
		counts := fmt.Sprintf("+%d -%d", f.Added, f.Removed)
		if f.Binary {
			counts = "binary"
		}
		fmt.Fprintf(w, "  %-9s %-*s  %s\n", f.Status, width, sanitize(f.Path), counts)
	}
	added, removed := diffTotals(files)
	fmt.Fprintf(w, "%d file(s) changed, %d insertion(s)(+), %d deletion(s)(-)\n", len(files), added, removed)
}
