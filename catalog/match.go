package catalog

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// MatchOptions selects how many skills Match returns and which are named outright.
type MatchOptions struct {
	// Limit is the most matches returned; 0 returns every skill that matches.
	Limit int
	// Hints are skill names the caller names explicitly; they rank first, in the order given.
	Hints []string
	// Skip, when set, leaves out the skills it reports true for, before Limit is applied.
	Skip func(*Skill) bool
}

// Match is one skill chosen for a task, and why.
type Match struct {
	Skill *Skill
	// Score is the relevance of the skill's name and description to the task (BM25).
	Score float64
	// Hint reports that the skill was named by a hint rather than found by relevance.
	Hint bool
	// Terms are the words of the task that the skill's name or description matched.
	Terms []string
	// Reason says why the skill was chosen: "hint", or the matched words and the score.
	Reason string
}

// MatchResult is the ranking of skills for one task.
type MatchResult struct {
	Matches []Match
	// UnknownHints are hinted names that no skill has.
	UnknownHints []string
}

// BM25 parameters, with the name weighted above the description: a word in a
// skill's name says more about what it is for than the same word in prose.
const (
	bm25K1     = 1.2
	bm25B      = 0.75
	nameWeight = 2
)

// Matcher ranks a set of skills for tasks. Build it once with NewMatcher and call Match as
// often as needed; Match is safe for concurrent use, Add is not.
type Matcher struct {
	skills  []*Skill
	byName  map[string]int
	lowName map[string]int
	// post lists, for each stem, the skills that have it, in the order of skills.
	post   map[string][]posting
	avgLen float64
	total  float64
	lens   []float64
}

// posting is one skill's weighted count of a term.
type posting struct {
	doc int32
	tf  float32
}

// NewMatcher indexes the names and descriptions of skills. The terms of a large catalog are
// read on every core; the index is then built in catalog order, so it is the same however the
// work was split.
func NewMatcher(skills []*Skill) *Matcher {
	m := &Matcher{skills: skills[:len(skills):len(skills)], byName: make(map[string]int, len(skills)), lowName: make(map[string]int, len(skills)),
		lens: make([]float64, len(skills))}
	docs := docTermsOf(skills)
	m.post = postingLists(docs)
	for i := range skills {
		m.put(i, docs[i])
	}
	return m
}

// Add indexes one more skill, ranked from then on with the others.
func (m *Matcher) Add(s *Skill) {
	m.skills = append(m.skills, s)
	m.lens = append(m.lens, 0)
	m.put(len(m.skills)-1, termsOf(s, map[string]float32{}))
}

// put indexes skill i, whose terms are d.
func (m *Matcher) put(i int, d docTerms) {
	s := m.skills[i]
	if _, dup := m.byName[s.Name]; !dup {
		m.byName[s.Name] = i
	}
	if _, dup := m.lowName[strings.ToLower(s.Name)]; !dup {
		m.lowName[strings.ToLower(s.Name)] = i
	}
	for k, st := range d.stems {
		m.post[st] = append(m.post[st], posting{doc: int32(i), tf: d.tfs[k]})
	}
	m.lens[i] = d.length
	m.total += d.length
	m.avgLen = m.total / float64(len(m.skills))
}

// postingLists returns a map of every stem of docs to an empty list with room for exactly its
// postings, all carved from one array: a catalog repeats a few thousand words, and lists grown
// one posting at a time would hold half as much again, in as many allocations as there are.
func postingLists(docs []docTerms) map[string][]posting {
	counts := map[string]int{}
	total := 0
	for _, d := range docs {
		for _, st := range d.stems {
			counts[st]++
		}
		total += len(d.stems)
	}
	all := make([]posting, total)
	post := make(map[string][]posting, len(counts))
	for st, n := range counts {
		post[st], all = all[:0:n], all[n:]
	}
	return post
}

// parallelIndexMin is the catalog size from which terms are read on several cores.
const parallelIndexMin = 2048

// docTerms are one skill's distinct stems, each with its weighted count, and its weighted length.
type docTerms struct {
	stems  []string
	tfs    []float32
	length float64
}

// docTermsOf reads the terms of every skill, in contiguous runs, one per core.
func docTermsOf(skills []*Skill) []docTerms {
	docs := make([]docTerms, len(skills))
	workers := runtime.GOMAXPROCS(0)
	if len(skills) < parallelIndexMin || workers < 2 {
		workers = 1
	}
	per := (len(skills) + workers - 1) / max(workers, 1)
	var wg sync.WaitGroup
	for lo := 0; lo < len(skills); lo += per {
		hi := min(lo+per, len(skills))
		wg.Add(1)
		go func() {
			defer wg.Done()
			tf := map[string]float32{}
			for i := lo; i < hi; i++ {
				docs[i] = termsOf(skills[i], tf)
			}
		}()
	}
	wg.Wait()
	return docs
}

// termsOf counts the terms of one skill's name and description. tf is scratch space, emptied
// first, that one call after another reuses.
func termsOf(s *Skill, tf map[string]float32) docTerms {
	clear(tf)
	d := docTerms{}
	add := func(w float32) func(term) {
		return func(t term) { tf[t.stem] += w; d.length += float64(w) }
	}
	terms(s.Name, add(nameWeight))
	terms(s.Description, add(1))
	d.stems, d.tfs = make([]string, 0, len(tf)), make([]float32, 0, len(tf))
	for st, n := range tf {
		d.stems = append(d.stems, st)
		d.tfs = append(d.tfs, n)
	}
	return d
}

// Match ranks the skills for task: hinted skills first (from o.Hints, then
// `$name` and `skill: name` in the task), then every other skill whose name or
// description shares a word with the task, by BM25 score, ties broken by name
// and folder so the order is always the same.
func (m *Matcher) Match(task string, o MatchOptions) *MatchResult {
	q := m.score(task)
	defer q.release()
	res := &MatchResult{}
	taken := map[int]bool{}
	for _, h := range append(append([]string(nil), o.Hints...), TaskHints(task)...) {
		i, ok := m.lookup(h)
		switch {
		case !ok:
			res.UnknownHints = appendNew(res.UnknownHints, h)
		case !taken[i] && !o.skips(m.skills[i]):
			taken[i] = true
			res.Matches = append(res.Matches, m.result(i, q, true))
		}
	}
	want := 0
	if o.Limit > 0 {
		want = max(o.Limit-len(res.Matches), 0)
		if want == 0 {
			res.Matches = res.Matches[:o.Limit]
			return res
		}
	}
	for _, i := range m.ranked(q.scores, want, func(i int) bool { return taken[i] || o.skips(m.skills[i]) }) {
		res.Matches = append(res.Matches, m.result(i, q, false))
	}
	return res
}

// skips says whether o leaves s out.
func (o MatchOptions) skips(s *Skill) bool { return o.Skip != nil && o.Skip(s) }

// query is a task's terms and the BM25 score of every skill for them, by skill: 0 for a
// skill that shares no term with the task.
type query struct {
	// stems are the task's distinct stems, in order, and words the first word of each.
	stems  []string
	words  map[string]string
	scores []float64
}

// score computes the BM25 score of every skill that shares a term with task, in one slice:
// a task's common words are in most skills' descriptions.
func (m *Matcher) score(task string) query {
	q := query{words: map[string]string{}, scores: scoreSlice(len(m.skills))}
	terms(task, func(t term) {
		if _, seen := q.words[t.stem]; !seen {
			q.words[t.stem] = t.word
			q.stems = append(q.stems, t.stem)
		}
	})
	n := float64(len(m.skills))
	for _, st := range q.stems {
		ps := m.post[st]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*m.lens[p.doc]/m.avgLen)
			q.scores[p.doc] += idf * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	return q
}

// scoreSlices keeps the score slices of finished queries: a batch of ten thousand proposals
// ranks ten thousand skills for each, and would otherwise make a slice of that size each time.
var scoreSlices sync.Pool

// scoreSlice returns a slice of n zero scores, reusing one a finished query gave back. A new
// one has room for an eighth more: the matcher of a batch's open candidates grows by one
// skill with each proposal, and a slice of exactly n would fit no later query.
func scoreSlice(n int) []float64 {
	if p, ok := scoreSlices.Get().(*[]float64); ok && cap(*p) >= n {
		s := (*p)[:n]
		clear(s)
		return s
	}
	return make([]float64, n, n+n/8)
}

// release gives the query's score slice back for the next query; q must not be used after.
func (q query) release() {
	s := q.scores
	scoreSlices.Put(&s)
}

// ranked orders the scored skills that skip does not leave out: score, then name, then
// folder; only the first limit of them when limit is above 0.
func (m *Matcher) ranked(scores []float64, limit int, skip func(int) bool) []int {
	before := func(x, y int) bool {
		if scores[x] != scores[y] {
			return scores[x] > scores[y]
		}
		if m.skills[x].Name != m.skills[y].Name {
			return m.skills[x].Name < m.skills[y].Name
		}
		return m.skills[x].Dir < m.skills[y].Dir
	}
	var out []int
	if limit <= 0 {
		for i, sc := range scores {
			if sc != 0 && !skip(i) {
				out = append(out, i)
			}
		}
		sort.SliceStable(out, func(a, b int) bool { return before(out[a], out[b]) })
		return out
	}
	// The first limit are kept in order as the scores are read: most skills rank below the
	// last of them and cost one comparison.
	for i, sc := range scores {
		if sc == 0 || len(out) == limit && !before(i, out[limit-1]) || skip(i) {
			continue
		}
		at := sort.Search(len(out), func(k int) bool { return before(i, out[k]) })
		if len(out) == limit {
			out = out[:limit-1]
		}
		out = slices.Insert(out, at, i)
	}
	return out
}

// result is skill i's match for the query q.
func (m *Matcher) result(i int, q query, hint bool) Match {
	r := Match{Skill: m.skills[i], Score: math.Round(q.scores[i]*1000) / 1000, Hint: hint}
	for _, st := range q.stems {
		if m.has(st, i) {
			r.Terms = append(r.Terms, q.words[st])
		}
	}
	if hint {
		r.Reason = "hint"
	} else {
		r.Reason = fmt.Sprintf("matched %s (score %.2f)", strings.Join(r.Terms, ", "), r.Score)
	}
	return r
}

// has says whether skill i has stem st.
func (m *Matcher) has(st string, i int) bool {
	ps := m.post[st]
	k := sort.Search(len(ps), func(k int) bool { return int(ps[k].doc) >= i })
	return k < len(ps) && int(ps[k].doc) == i
}

// lookup finds a skill by its exact name, or else by its name in any case.
func (m *Matcher) lookup(name string) (int, bool) {
	if i, ok := m.byName[name]; ok {
		return i, true
	}
	i, ok := m.lowName[strings.ToLower(name)]
	return i, ok
}

// hintPattern finds skills a task names outright: "$pdf-forms" or "skill: pdf-forms".
var hintPattern = lazyregexp.New(`\$([a-z][a-z0-9-]{0,63})|(?i:\bskill:)[ \t]*([a-z0-9][a-z0-9-]{0,63})`)

// TaskHints returns the skill names a task text names outright, in order of
// appearance: `$name` (starting with a letter, so "$5" is a price, not a skill), or
// `skill: name`.
func TaskHints(task string) []string {
	var out []string
	for _, sm := range hintPattern().FindAllStringSubmatch(task, -1) {
		out = appendNew(out, strings.TrimRight(sm[1]+sm[2], "-"))
	}
	return out
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
