package lifecycle

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// This file finds candidates: by id, open or rejected from their refs, published from the
// publish branch.

// findCandidate resolves id to its branch, or to its archive ref when it was rejected.
func (r *Repo) findCandidate(id string) (ref string, tip gitstore.Hash, err error) {
	if err := CheckID(id); err != nil {
		return "", tip, err
	}
	for _, ref := range []string{CandidatePrefix + id, ArchivePrefix + id} {
		h, err := r.Git.Ref(ref)
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
// published one from the publish branch.
func (r *Repo) Candidate(id string) (*Candidate, error) {
	_, c, err := r.candidateChain(id)
	return c, err
}

// candidateChain reads a candidate, open, rejected or published, with its chain of commits.
func (r *Repo) candidateChain(id string) (*chain, *Candidate, error) {
	ref, tip, err := r.findCandidate(id)
	if err != nil {
		return r.publishedCandidate(id, err)
	}
	ch, err := r.loadChain(id, ref, tip)
	if err != nil {
		return nil, nil, err
	}
	st, err := r.newStateCtx(ch.propose().c.Committer.When)
	if err != nil {
		return nil, nil, err
	}
	c, err := r.view(ch, st, true)
	return ch, c, err
}

func (r *Repo) publishedCandidate(id string, notFound error) (*chain, *Candidate, error) {
	chains, err := r.publishedChains(nil, map[string]bool{})
	if err != nil {
		return nil, nil, err
	}
	for _, ch := range chains {
		if ch.id == id {
			st, err := r.newStateCtx(ch.propose().c.Committer.When)
			if err != nil {
				return nil, nil, err
			}
			c, err := r.view(ch, st, true)
			return ch, c, err
		}
	}
	return nil, nil, notFound
}

// openCandidate reads a candidate that can still change: not rejected, not published.
func (r *Repo) openCandidate(id string) (*chain, *Candidate, error) {
	ref, tip, err := r.findCandidate(id)
	if errors.Is(err, ErrNotFound) && CheckID(id) == nil {
		if _, c, perr := r.publishedCandidate(id, err); perr == nil {
			return nil, nil, fmt.Errorf("%s: %w: the candidate is already published on %s by %s", id, ErrRefused, short(r.Branch), shortID(c.PublishedBy))
		}
	}
	if err != nil {
		return nil, nil, err
	}
	ch, err := r.loadChain(id, ref, tip)
	if err != nil {
		return nil, nil, err
	}
	st, err := r.newStateCtx(time.Time{})
	if err != nil {
		return nil, nil, err
	}
	c, err := r.view(ch, st, false)
	if err != nil {
		return nil, nil, err
	}
	switch c.State {
	case StateRejected:
		return nil, nil, fmt.Errorf("%s: %w: the candidate was rejected (%s); propose the change again", id, ErrRefused, ref)
	case StatePublished:
		return nil, nil, fmt.Errorf("%s: %w: the candidate is already published on %s", id, ErrRefused, short(r.Branch))
	}
	return ch, c, nil
}

// actOn resolves who acts and reads the candidate they act on, which must still be open.
func (r *Repo) actOn(id string, o ActOptions) (object.Signature, string, *chain, *Candidate, error) {
	sig, warn, err := r.Actor(o)
	if err != nil {
		return sig, "", nil, nil, err
	}
	ch, c, err := r.openCandidate(id)
	return sig, warn, ch, c, err
}
