package lifecycle

import (
	"sort"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// Batch runs fn, a series of proposals such as a pack update's, as one batch: the open
// candidates that each proposal is checked against (for a candidate of the same skill and for
// likely duplicates) are read once, when the first proposal needs them, and the candidates the
// batch makes are added as it makes them, instead of every proposal reading every candidate
// again. Each proposal is still its own candidate, made by compare-and-swap; a candidate that
// another process makes meanwhile is not among those the batch's later proposals are checked
// against.
func (r *Repo) Batch(fn func() error) error {
	r.openMu.Lock()
	r.inBatch, r.open = true, nil
	r.openMu.Unlock()
	defer func() {
		r.openMu.Lock()
		r.inBatch, r.open = false, nil
		r.openMu.Unlock()
	}()
	return fn()
}

// openIndex is the open candidates of a batch, read once for one reading of the publish
// branch (a book), each with what the checks of a proposal read of it.
type openIndex struct {
	book    *ledger.Book
	byID    map[string]*openCand
	bySkill map[string][]*openCand
	// skills are the skills of the open candidates that create or patch one, which
	// proposals are compared with for likely duplicates.
	skills *published.Candidates
}

// openCand is a candidate with a branch: its chain and its view (nil when it is not open, or
// not read yet).
type openCand struct {
	ch *ledger.Chain
	c  *Candidate
}

// openIndex returns the batch's index of open candidates for the current book, reading it
// when there is none yet or the publish branch moved; nil outside a batch.
func (r *Repo) openIndex() (*openIndex, error) {
	r.openMu.Lock()
	defer r.openMu.Unlock()
	if !r.inBatch {
		return nil, nil
	}
	bk := r.book()
	if r.open != nil && r.open.book == bk {
		return r.open, nil
	}
	ix := &openIndex{book: bk, byID: map[string]*openCand{}, bySkill: map[string][]*openCand{}, skills: published.NewCandidates()}
	chains, err := bk.OpenChains(func(*ledger.Chain) bool { return true })
	if err != nil {
		return nil, err
	}
	cands, err := bk.OpenCandidates()
	if err != nil {
		return nil, err
	}
	views := map[string]*Candidate{}
	for _, c := range cands {
		views[c.ID+" "+c.Tip] = c
	}
	for _, ch := range chains {
		oc := &openCand{ch: ch, c: views[ch.ID+" "+ch.Tip.String()]}
		if oc.c != nil && !noSkill(oc.c.Change) {
			ix.addSkill(oc.c, (dupCheck{r: r}).candidateSkill(oc.c))
		}
		ix.put(oc)
	}
	r.open = ix
	return ix, nil
}

// put adds oc to the index.
func (ix *openIndex) put(oc *openCand) {
	ix.byID[oc.ch.ID] = oc
	name := oc.ch.Skill()
	ix.bySkill[name] = append(ix.bySkill[name], oc)
	sort.Slice(ix.bySkill[name], func(i, j int) bool { return ix.bySkill[name][i].ch.ID < ix.bySkill[name][j].ch.ID })
}

// addSkill adds sk, the skill of open candidate c, to those proposals are compared with;
// nothing when it could not be read.
func (ix *openIndex) addSkill(c *Candidate, sk *catalog.Skill) {
	if sk != nil {
		ix.skills.Add(published.CandidateSkill{ID: c.ID, Of: c.Skill, Skill: sk})
	}
}

// openOfSkill is Book.OpenOfSkill, read from the batch's index in a batch: the chains of the
// candidates of skill name that have a branch, by id.
func (r *Repo) openOfSkill(name string) ([]*ledger.Chain, error) {
	ix, err := r.openIndex()
	if err != nil {
		return nil, err
	}
	if ix == nil {
		return r.book().OpenOfSkill(name)
	}
	var out []*ledger.Chain
	for _, oc := range ix.bySkill[name] {
		out = append(out, oc.ch)
	}
	return out, nil
}

// proposed adds to the batch's index, if there is one, candidate id that the batch just
// proposed with commit h and the skill sk (nil for a deletion).
func (r *Repo) proposed(id string, h gitstore.Hash, sk *catalog.Skill) error {
	r.openMu.Lock()
	defer r.openMu.Unlock()
	ix := r.open
	if ix == nil || ix.book != r.book() {
		return nil
	}
	ch, err := ix.book.LoadChain(id, CandidatePrefix+id, h)
	if err != nil {
		return err
	}
	c, err := ix.book.CandidateOf(ch, false)
	if err != nil {
		return err
	}
	c.State = StateOpen
	if !noSkill(c.Change) {
		ix.addSkill(c, sk)
	}
	ix.put(&openCand{ch: ch, c: c})
	return nil
}

// forgetOpen drops the batch's index after a candidate moved or was archived: the next check
// reads the candidates again.
func (r *Repo) forgetOpen() {
	r.openMu.Lock()
	r.open = nil
	r.openMu.Unlock()
}

// noSkill says whether a candidate's change leaves no skill to compare: a deletion or a
// policy change.
func noSkill(c Change) bool { return c == ChangeDelete || c == ChangePolicy }
