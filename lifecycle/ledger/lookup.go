package ledger

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// This file finds candidates: by id, open or rejected from their refs, published from the
// publish branch.

// findCandidate resolves id to its branch, or to its archive ref when it was rejected.
func (b *Book) FindCandidate(id string) (ref string, tip gitstore.Hash, err error) {
	if err := CheckID(id); err != nil {
		return "", tip, err
	}
	for _, ref := range []string{CandidatePrefix + id, ArchivePrefix + id} {
		h, err := b.Git.Ref(ref)
		if err == nil {
			return ref, h, nil
		}
		if !errors.Is(err, gitstore.ErrRefNotFound) {
			return "", h, err
		}
	}
	return "", tip, fmt.Errorf("%s: candidate %w; `skillgit candidates --state all` lists them", id, ErrNotFound)
}

// Candidate returns one candidate with its history: an open or rejected one from its ref, a
// published one from the publish branch. id may also be the name of a skill with exactly one
// open candidate; an id always wins over a skill name.
func (b *Book) Candidate(id string) (*Candidate, error) {
	_, c, err := b.CandidateChain(id)
	return c, err
}

// candidateChain reads a candidate, open, rejected or published, with its chain of commits;
// name is its id, or the name of a skill with exactly one open candidate.
func (b *Book) CandidateChain(name string) (*Chain, *Candidate, error) {
	id, ref, tip, err := b.Locate(name)
	if err != nil {
		return b.PublishedCandidate(id, err)
	}
	ch, err := b.LoadChain(id, ref, tip)
	if err != nil {
		return nil, nil, err
	}
	st, err := b.NewStateCtx(ch.Propose().C.Committer.When)
	if err != nil {
		return nil, nil, err
	}
	c, err := b.View(ch, st, true)
	return ch, c, err
}

func (b *Book) PublishedCandidate(id string, notFound error) (*Chain, *Candidate, error) {
	chains, err := b.PublishedChains(nil, map[string]bool{})
	if err != nil {
		return nil, nil, err
	}
	for _, ch := range chains {
		if ch.ID == id {
			st, err := b.NewStateCtx(ch.Propose().C.Committer.When)
			if err != nil {
				return nil, nil, err
			}
			c, err := b.View(ch, st, true)
			return ch, c, err
		}
	}
	return nil, nil, notFound
}

// openCandidate reads a candidate that can still change: not rejected, not published. Like
// every lookup, it takes a candidate's id or the name of a skill with one open candidate.
func (b *Book) OpenCandidate(name string) (*Chain, *Candidate, error) {
	id, ref, tip, err := b.Locate(name)
	if errors.Is(err, ErrNotFound) && CheckID(id) == nil {
		if _, c, perr := b.PublishedCandidate(id, err); perr == nil {
			return nil, nil, fmt.Errorf("%s: %w: the candidate is already published on %s by %s", id, ErrRefused, gitstore.ShortRef(b.Branch), gitstore.ShortHash(c.PublishedBy))
		}
	}
	if err != nil {
		return nil, nil, err
	}
	ch, err := b.LoadChain(id, ref, tip)
	if err != nil {
		return nil, nil, err
	}
	st, err := b.NewStateCtx(time.Time{})
	if err != nil {
		return nil, nil, err
	}
	c, err := b.View(ch, st, false)
	if err != nil {
		return nil, nil, err
	}
	switch c.State {
	case StateRejected:
		return nil, nil, fmt.Errorf("%s: %w: the candidate was rejected (%s); propose the change again", id, ErrRefused, ref)
	case StatePublished:
		return nil, nil, fmt.Errorf("%s: %w: the candidate is already published on %s", id, ErrRefused, gitstore.ShortRef(b.Branch))
	}
	return ch, c, nil
}

// idShape is the end of an id that propose makes: a hyphen and four hex digits.
var idShape = lazyregexp.New(`-[0-9a-f]{4}$`)

// locate resolves name to a candidate: the one whose id it is (open or rejected), else the
// one open candidate of the skill of that name. Several open candidates of the skill is an
// error listing their ids; none is ErrNotFound, and the published candidates are then left to
// the caller. A published candidate's id still wins over a skill name.
func (b *Book) Locate(name string) (id, ref string, tip gitstore.Hash, err error) {
	ref, tip, err = b.FindCandidate(name)
	if !errors.Is(err, ErrNotFound) || CheckID(name) != nil {
		return name, ref, tip, err
	}
	chains, serr := b.OpenOfSkill(name)
	if serr != nil {
		return name, "", tip, serr
	}
	switch {
	case len(chains) == 0:
		return name, "", tip, fmt.Errorf("%s: candidate %w: no candidate has this id and no open candidate changes a skill of this name; `skillgit candidates --state all` lists them", name, ErrNotFound)
	case len(chains) > 1:
		ids := make([]string, len(chains))
		for i, ch := range chains {
			ids[i] = ch.ID
		}
		return name, "", tip, fmt.Errorf("%s: %d open candidates change this skill: %s; name one by its id", name, len(ids), strings.Join(ids, ", "))
	}
	if idShape().MatchString(name) {
		if _, _, perr := b.PublishedCandidate(name, err); perr == nil {
			return name, "", tip, err // a published candidate has this id
		}
	}
	return chains[0].ID, chains[0].Ref, chains[0].Tip, nil
}

// openOfSkill reads the open candidates (those with a branch) of the skill name, by id.
func (b *Book) OpenOfSkill(name string) ([]*Chain, error) {
	out, err := b.OpenChains(func(ch *Chain) bool { return ch.Propose().Claims.Get(KeySkill) == name })
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// openChains reads the candidates that have a branch and that keep accepts.
func (b *Book) OpenChains(keep func(*Chain) bool) ([]*Chain, error) {
	refs, err := b.Git.Refs(CandidatePrefix)
	if err != nil {
		return nil, err
	}
	var out []*Chain
	for _, ref := range refs {
		id := strings.TrimPrefix(ref.Name, CandidatePrefix)
		if CheckID(id) != nil {
			continue
		}
		ch, err := b.LoadChain(id, ref.Name, ref.Hash)
		if err != nil || !keep(ch) {
			continue // a branch under candidate/ that skillgit did not make, or not one asked for
		}
		out = append(out, ch)
	}
	return out, nil
}

// PackCandidates returns the ids of the candidates that come from pack name (their
// Skillgit-Pack trailer is NAME@COMMIT) and are in one of states (open or approved when
// none is given), in a stable order: by skill, then by id. Published ones on the canary
// channel are left out: they are no longer waiting.
func (b *Book) PackCandidates(name string, states ...State) ([]string, error) {
	if len(states) == 0 {
		states = []State{StateOpen, StateApproved}
	}
	chains, err := b.OpenChains(func(ch *Chain) bool {
		p, _, ok := strings.Cut(ch.Propose().Claims.Get(KeyPack), "@")
		return ok && p == name
	})
	if err != nil {
		return nil, err
	}
	st, err := b.NewStateCtx(time.Time{})
	if err != nil {
		return nil, err
	}
	type entry struct{ skill, id string }
	var es []entry
	for _, ch := range chains {
		c, err := b.View(ch, st, false)
		if err != nil {
			return nil, err
		}
		if slices.Contains(states, c.State) {
			es = append(es, entry{c.Skill, c.ID})
		}
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].skill != es[j].skill {
			return es[i].skill < es[j].skill
		}
		return es[i].id < es[j].id
	})
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.id
	}
	return ids, nil
}
