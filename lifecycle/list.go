package lifecycle

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Candidates lists candidates in a state: "open" (the default: open and approved), "approved",
// "rejected", "published", "rolled-back" (published, then reverted) or "all", newest first.
func (r *Repo) Candidates(state string) ([]*Candidate, error) {
	if state == "" {
		state = "open"
	}
	switch state {
	case "open", "approved", "rejected", "published", string(StateRolledBack), "all":
	default:
		return nil, fmt.Errorf("--state %q is not one of open, approved, rejected, published, rolled-back, all", state)
	}
	chains, err := r.chains(state)
	if err != nil {
		return nil, err
	}
	since := time.Now()
	for _, ch := range chains {
		if t := ch.Propose().C.Committer.When; t.Before(since) {
			since = t
		}
	}
	st, err := r.newStateCtx(since)
	if err != nil {
		return nil, err
	}
	out := []*Candidate{}
	for _, ch := range chains {
		c, err := r.view(ch, st, false)
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
func (r *Repo) chains(state string) ([]*ledger.Chain, error) {
	prefixes := []string{CandidatePrefix}
	if state == "rejected" || state == "all" {
		prefixes = append(prefixes, ArchivePrefix)
	}
	var out []*ledger.Chain
	seen := map[string]bool{}
	for _, p := range prefixes {
		refs, err := r.Git.Refs(p)
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			id := strings.TrimPrefix(ref.Name, p)
			if seen[id] || CheckID(id) != nil {
				continue
			}
			ch, err := r.loadChain(id, ref.Name, ref.Hash)
			if err != nil {
				continue // a branch under candidate/ that skillgit did not make
			}
			seen[id] = true
			out = append(out, ch)
		}
	}
	if state == "published" || state == string(StateRolledBack) || state == "all" {
		return r.publishedChains(out, seen)
	}
	return out, nil
}

// publishedChains adds the candidates whose publish merges are on the branch and whose
// branches are gone.
func (r *Repo) publishedChains(out []*ledger.Chain, seen map[string]bool) ([]*ledger.Chain, error) {
	err := r.Git.WalkFirstParent(r.Tip, func(h gitstore.Hash, c *object.Commit) error {
		if len(c.ParentHashes) != 2 {
			return nil
		}
		second, err := r.readCommit(c.ParentHashes[1])
		id := second.Claims.Get(keyCandidate)
		if err != nil || id == "" || seen[id] {
			return nil
		}
		if ch, err := r.loadChain(id, "", c.ParentHashes[1]); err == nil {
			seen[id] = true
			out = append(out, ch)
		}
		return nil
	})
	return out, err
}
