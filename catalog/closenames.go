package catalog

import (
	"sort"
	"strings"
)

// closeDistance is how many edits apart a name may be from the one typed and still be
// suggested, as cobra suggests commands.
const closeDistance = 2

// closeMax bounds how many names CloseNames returns.
const closeMax = 3

// CloseNamesHint is "; WHAT with close names: a, b" for the names among known that are close
// to name (CloseNames), to end an error with; "" when none is.
func CloseNamesHint(name string, known []string, what string) string {
	near := CloseNames(name, known)
	if len(near) == 0 {
		return ""
	}
	return "; " + what + " with close names: " + strings.Join(near, ", ")
}

// CloseNames returns the names among known that name was likely meant to be, closest first
// and at most three: those a couple of edits away, and those that contain name or that name
// contains (three characters or more). It is how a mistyped skill name gets suggestions.
func CloseNames(name string, known []string) []string {
	type hit struct {
		name string
		d    int
	}
	var hits []hit
	seen := map[string]bool{}
	for _, k := range known {
		if k == name || seen[k] {
			continue
		}
		seen[k] = true
		d := editDistance(name, k)
		if d <= closeDistance || contains(k, name) || contains(name, k) {
			hits = append(hits, hit{k, d})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].name < hits[j].name
	})
	out := []string{}
	for i := 0; i < len(hits) && i < closeMax; i++ {
		out = append(out, hits[i].name)
	}
	return out
}

// contains reports whether s holds part, a part long enough to mean something.
func contains(s, part string) bool { return len(part) >= 3 && strings.Contains(s, part) }

// editDistance is the Levenshtein distance between a and b, counted in bytes: skill names
// are ASCII.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
