package ledger

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// Candidates lists candidates in a state: "open" (the default: open and approved), "approved",
// "rejected", "published", "rolled-back" (published, then reverted) or "all", newest first.
func (b *Book) Candidates(state string) ([]*Candidate, error) {
	if state == "" {
		state = "open"
	}
	switch state {
	case "open", "approved", "rejected", "published", string(StateRolledBack), "all":
	default:
		return nil, fmt.Errorf("--state %q is not one of open, approved, rejected, published, rolled-back, all", state)
	}
	chains, err := b.Chains(state)
	if err != nil {
		return nil, err
	}
	since := time.Now()
	for _, ch := range chains {
		if t := ch.Propose().C.Committer.When; t.Before(since) {
			since = t
		}
	}
	st, err := b.NewStateCtx(since)
	if err != nil {
		return nil, err
	}
	out := []*Candidate{}
	for _, ch := range chains {
		c, err := b.View(ch, st, false)
		if err != nil {
			return nil, err
		}
		if wanted(state, c.State) {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// openViews holds what OpenCandidates read for a book: the state of the channels, read back
// far enough for every candidate seen, and each candidate's view by tip and id.
type openViews struct {
	st    *StateCtx
	views map[chainKey]*Candidate
}

// OpenCandidates lists the open candidates as Candidates("open") does, newest first. It reads
// each candidate once for the book, which stands for one state of the publish branch: a later
// call reads only the candidates that are new or whose tips moved since, so that a batch of
// proposals costs one reading of the candidates, not one for each proposal. The candidates it
// returns are shared by the calls: read them, never change them.
func (b *Book) OpenCandidates() ([]*Candidate, error) {
	chains, err := b.Chains("open")
	if err != nil {
		return nil, err
	}
	b.openMu.Lock()
	defer b.openMu.Unlock()
	ov, err := b.openViewsFor(chains)
	if err != nil {
		return nil, err
	}
	out := []*Candidate{}
	for _, ch := range chains {
		k := chainKey{tip: ch.Tip, id: ch.ID}
		c, ok := ov.views[k]
		if !ok {
			if c, err = b.View(ch, ov.st, false); err != nil {
				return nil, err
			}
			ov.views[k] = c
		}
		if wanted("open", c.State) {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// openViewsFor is the book's openViews, with the channels read back to the oldest proposal of
// chains: a state read back less far does not tell whether that candidate was merged.
func (b *Book) openViewsFor(chains []*Chain) (*openViews, error) {
	since := time.Now()
	for _, ch := range chains {
		if t := ch.Propose().C.Committer.When; t.Before(since) {
			since = t
		}
	}
	if b.open == nil {
		b.open = &openViews{views: map[chainKey]*Candidate{}}
	}
	if b.open.st == nil || since.Before(b.open.st.since) {
		st, err := b.NewStateCtx(since)
		if err != nil {
			return nil, err
		}
		b.open.st = st
	}
	return b.open, nil
}

func wanted(state string, s State) bool {
	switch state {
	case "all":
		return true
	case "open":
		return s == StateOpen || s == StateApproved || s == StateCanary
	case "published":
		return s == StatePublished || s == StateCanary
	}
	return string(s) == state
}

// chains reads the candidate branches, the archive when rejected ones are asked for, and the
// publishes on the branch when published or rolled-back ones are.
func (b *Book) Chains(state string) ([]*Chain, error) {
	prefixes := []string{CandidatePrefix}
	if state == "rejected" || state == "all" {
		prefixes = append(prefixes, ArchivePrefix)
	}
	var out []*Chain
	seen := map[string]bool{}
	for _, p := range prefixes {
		refs, err := b.Git.Refs(p)
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			id := strings.TrimPrefix(ref.Name, p)
			if seen[id] || CheckID(id) != nil {
				continue
			}
			ch, err := b.LoadChain(id, ref.Name, ref.Hash)
			if gitstore.IsObjectError(err) {
				return nil, err // a commit it cannot read is no proof that this is no candidate
			}
			if err != nil {
				continue // a branch under candidate/ that skillgit did not make
			}
			seen[id] = true
			out = append(out, ch)
		}
	}
	if state == "published" || state == string(StateRolledBack) || state == "all" {
		return b.PublishedChains(out, seen)
	}
	return out, nil
}

// publishedChains adds the candidates whose publish merges are on the branch and whose
// branches are gone.
func (b *Book) PublishedChains(out []*Chain, seen map[string]bool) ([]*Chain, error) {
	err := b.Git.WalkFirstParent(b.Tip, func(h gitstore.Hash, c *object.Commit) error {
		if len(c.ParentHashes) != 2 {
			return nil
		}
		second, err := b.readCommit(c.ParentHashes[1])
		if err != nil {
			return err
		}
		id := second.Claims.Get(KeyCandidate)
		if id == "" || seen[id] {
			return nil
		}
		ch, err := b.LoadChain(id, "", c.ParentHashes[1])
		if gitstore.IsObjectError(err) {
			return err
		}
		if err == nil {
			seen[id] = true
			out = append(out, ch)
		}
		return nil
	})
	return out, err
}
