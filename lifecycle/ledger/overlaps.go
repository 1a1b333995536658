package ledger

import (
	"slices"
	"strconv"
	"strings"
)

// ParseOverlap reads a Skillgit-Overlaps trailer back; ok is false for one it cannot read.
func ParseOverlap(v string) (Overlap, bool) {
	f := strings.SplitN(strings.TrimSpace(v), " ", 3)
	if len(f) < 2 {
		return Overlap{}, false
	}
	score, err := strconv.ParseFloat(f[1], 64)
	if err != nil || score < 0 || score > 1 {
		return Overlap{}, false
	}
	o := Overlap{Skill: f[0], Score: score, Duplicate: true}
	if id, ok := strings.CutPrefix(f[0], "candidate/"); ok {
		o.Skill, o.Candidate = "", id
	}
	if len(f) == 3 {
		o.Reason = f[2]
	}
	return o, true
}

// DuplicatesOf reads the likely duplicates a commit recorded.
func DuplicatesOf(ci Commit) []Overlap {
	var out []Overlap
	for _, v := range ci.Claims.All(KeyOverlaps) {
		if o, ok := ParseOverlap(v); ok {
			out = append(out, o)
		}
	}
	return out
}

// PublishedNames are the skills a publish commit made: those its trailers name, with the
// candidate's name replaced by the one it was published as.
func PublishedNames(ci Commit, skills []string) []string {
	as := ci.Claims.Get(KeyPublishedAs)
	if as == "" || len(skills) == 0 {
		return skills
	}
	out := slices.Clone(skills)
	out[0] = as
	return out
}
