package lifecycle

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
)

// The trailers of the dedupe check.
const (
	// keyOverlaps records, on a propose or revise commit, one skill or candidate the new
	// version likely duplicates: "NAME SCORE REASON", NAME being a skill or candidate/ID.
	keyOverlaps = "Skillgit-Overlaps"
	// keyMergedFrom names, on a revise commit of merge-candidate, the candidate folded in.
	keyMergedFrom = "Skillgit-Merged-From"
)

// How the dedupe check ranks and reports.
const (
	// dedupeTopK is how many published skills, ranked by the matcher on name and description,
	// have their bodies compared.
	dedupeTopK = 20
	// dedupeFloor is the least score reported.
	dedupeFloor = 0.3
	// dedupeReport is the most overlaps reported.
	dedupeReport = 3
	// The weights of the body, the name and the description in the score.
	weightBody, weightName, weightDesc = 0.7, 0.15, 0.15
)

// Overlap is a published skill or an open candidate that a candidate resembles.
type Overlap struct {
	// Skill is the skill's name; Candidate is the candidate's id when the overlap is with an
	// open candidate rather than a published skill.
	Skill     string  `json:"skill"`
	Candidate string  `json:"candidate,omitempty"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason"`
	// Duplicate says that Score reaches dedupe.threshold: the candidate is a likely duplicate.
	Duplicate bool `json:"duplicate,omitempty"`
}

// Label names the overlapped skill or candidate in text.
func (o Overlap) Label() string {
	if o.Candidate != "" {
		return "candidate " + o.Candidate
	}
	return o.Skill
}

// dedupeItem is one skill compared with the candidate.
type dedupeItem struct {
	skill     *catalog.Skill
	candidate string
}

// overlaps compares sk, a new proposal or the new version of candidate self, with the
// published skills and the open candidates other than self and those of the same skill, and returns the
// closest, best first. Names and descriptions of the published skills are ranked by the cached
// matcher; bodies are read and shingled for its top dedupeTopK and for the open candidates only.
func (r *Repo) overlaps(sk *catalog.Skill, self ...string) ([]Overlap, error) {
	items, err := r.dedupeItems(sk, self)
	if err != nil {
		return nil, err
	}
	body := catalog.ShinglesOf(sk.Body, catalog.ShingleSize)
	name, desc := catalog.TermSet(sk.Name), catalog.TermSet(sk.Description)
	var out []Overlap
	for _, it := range items {
		o := scoreOverlap(it, body, name, desc)
		if o.Score >= dedupeFloor {
			o.Duplicate = o.Score >= r.Config.Dedupe.ThresholdOrDefault()
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > dedupeReport {
		out = out[:dedupeReport]
	}
	return out, nil
}

// dedupeItems reads the skills to compare: the matcher's best published skills and every open
// candidate, without sk's own skill or candidate self.
func (r *Repo) dedupeItems(sk *catalog.Skill, self []string) ([]dedupeItem, error) {
	m, err := r.matcher()
	if err != nil {
		return nil, err
	}
	var items []dedupeItem
	fsys := r.Git.TreeFS(r.Tree)
	for _, mt := range m.Match(sk.Name+" "+sk.Description, catalog.MatchOptions{Limit: dedupeTopK}).Matches {
		if mt.Skill.Name == sk.Name {
			continue
		}
		if full, _ := catalog.Load(fsys, mt.Skill.Dir, catalog.Lenient, false); full != nil {
			items = append(items, dedupeItem{skill: full})
		}
	}
	cands, err := r.Candidates("open")
	if err != nil {
		return nil, err
	}
	for _, c := range cands {
		if slices.Contains(self, c.ID) || c.Skill == sk.Name || c.Change == ChangeDelete || c.Change == ChangePolicy {
			continue
		}
		if full := r.candidateSkill(c); full != nil {
			items = append(items, dedupeItem{skill: full, candidate: c.ID})
		}
	}
	return items, nil
}

// candidateSkill reads the skill at the tip of candidate c, or nil when it cannot be read.
func (r *Repo) candidateSkill(c *Candidate) *catalog.Skill {
	ci, err := r.commitInfo(plumbing.NewHash(c.Tip))
	if err != nil {
		return nil
	}
	full, _ := catalog.Load(r.Git.TreeFS(ci.c.TreeHash), c.Path, catalog.Lenient, false)
	return full
}

// scoreOverlap scores one skill against the candidate's body shingles and name and
// description terms, and says why in one line.
func scoreOverlap(it dedupeItem, body catalog.Shingles, name, desc map[string]string) Overlap {
	b := catalog.Jaccard(body, catalog.ShinglesOf(it.skill.Body, catalog.ShingleSize))
	n, _ := catalog.SharedTerms(name, catalog.TermSet(it.skill.Name))
	d, shared := catalog.SharedTerms(desc, catalog.TermSet(it.skill.Description))
	score := math.Round((weightBody*b+weightName*n+weightDesc*d)*100) / 100
	o := Overlap{Skill: it.skill.Name, Candidate: it.candidate, Score: score}
	lead := "overlaps"
	switch {
	case b >= 0.8:
		lead = "same steps as"
	case b >= 0.4:
		lead = "similar steps to"
	}
	o.Reason = fmt.Sprintf("%s %s: body %d%% alike", lead, o.Label(), int(math.Round(b*100)))
	if len(shared) > 0 {
		o.Reason += fmt.Sprintf("; description shares '%s'", strings.Join(firstN(shared, 5), ", "))
	}
	return o
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// duplicateTrailers adds a Skillgit-Overlaps trailer for each likely duplicate.
func duplicateTrailers(ts trailerList, overlaps []Overlap) trailerList {
	for _, o := range overlaps {
		if o.Duplicate {
			ts = ts.add(keyOverlaps, overlapTrailer(o))
		}
	}
	return ts
}

// overlapTrailer renders an overlap as a trailer value: "NAME SCORE REASON", on one line.
func overlapTrailer(o Overlap) string {
	name := o.Skill
	if o.Candidate != "" {
		name = "candidate/" + o.Candidate
	}
	reason := strings.Join(strings.Fields(o.Reason), " ")
	return fmt.Sprintf("%s %.2f %s", name, o.Score, reason)
}

// parseOverlap reads a Skillgit-Overlaps trailer back; ok is false for one it cannot read.
func parseOverlap(v string) (Overlap, bool) {
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

// duplicatesOf reads the likely duplicates a commit recorded.
func duplicatesOf(ci commitInfo) []Overlap {
	var out []Overlap
	for _, v := range ci.all(keyOverlaps) {
		if o, ok := parseOverlap(v); ok {
			out = append(out, o)
		}
	}
	return out
}

// likelyDuplicate says why the mode leaves a candidate to people as a likely duplicate, or "".
func likelyDuplicate(dups []Overlap) string {
	for _, o := range dups {
		if o.Duplicate {
			return fmt.Sprintf("it is a likely duplicate of %s (overlap %.2f); a person decides whether to keep both", o.Label(), o.Score)
		}
	}
	return ""
}

// dedupe compares a proposed or revised skill with the others and records the closest in
// res.Overlaps; self are the candidates left out: the one revised and the one merged into it.
func (r *Repo) dedupe(snap *snapshot, res *Result, self ...string) error {
	if snap.change == ChangeDelete || snap.skill == nil {
		return nil
	}
	var err error
	res.Overlaps, err = r.overlaps(snap.skill, self...)
	return err
}

// leaveDuplicate reports whether the mode must leave a fresh proposal or revision to people as
// a likely duplicate, and says so in a warning.
func (r *Repo) leaveDuplicate(res *Result) bool {
	why := likelyDuplicate(res.Overlaps)
	if why != "" {
		res.addWarning(fmt.Sprintf("warning: %s: mode %s neither approves nor publishes it: %s", res.ID, r.Config.Mode, why))
	}
	return why != ""
}

// orDuplicate is why, or, when the mode would publish c, why a likely duplicate is left to people.
func orDuplicate(why string, c *Candidate) string {
	if why != "" {
		return why
	}
	return likelyDuplicate(c.Duplicates)
}
