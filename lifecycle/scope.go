package lifecycle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// maxOutsideNamed bounds how many out-of-scope paths a refusal or a review names.
const maxOutsideNamed = 20

// Scope is what a candidate may change and what its branch does change (DESIGN.md §3: a
// candidate's scope is what its trailers declare).
type Scope struct {
	// Declared lists the skill folders the candidate's trailers declare.
	Declared []string `json:"declared"`
	// Changed lists the skill folders the branch changes since its merge base with the
	// publish branch, and the paths it changes outside any skill folder.
	Changed []string `json:"changed"`
	// Outside lists the changed paths that are not in Declared; a candidate with any is
	// refused at approve and publish.
	Outside []string `json:"outside,omitempty"`
	// folders are the changed skill folders inside Declared, from the merge base to the tip.
	folders []skilltree.Change
	// anchor is the channel's tree at the candidate's recorded base (chainBase) when the merge
	// base differs from it: a channel folder that changed since then is one the candidate
	// must be rebased onto, whatever git merges its branch holds. Zero when they are the same.
	anchor gitstore.Hash
}

// InScope reports whether the branch changes nothing beyond what the candidate declares.
func (s *Scope) InScope() bool { return len(s.Outside) == 0 }

// CandidateScope computes the scope of candidate id against the publish branch's tip.
func (r *Repo) CandidateScope(id string) (*Scope, error) {
	id, ref, tip, err := r.book().Locate(id)
	if err != nil {
		return nil, err
	}
	ch, err := r.loadChain(id, ref, tip)
	if err != nil {
		return nil, err
	}
	return newPlanner(r).scope(ch, r.tip, r.tree)
}

// scope computes a candidate's scope against start, a commit of a channel whose tree is
// startTree: the declared folders, and what the candidate's tip changes relative to the merge
// base of start and the candidate. It is the one definition review, approve and publish use.
func (p planner) scope(ch *ledger.Chain, start, startTree gitstore.Hash) (*Scope, error) {
	r := p.r
	baseTree, anchor, err := p.scopeBase(ch, start, startTree)
	if err != nil {
		return nil, err
	}
	tipTree := ch.Last().C.TreeHash
	fd, outside, err := treesOf(r).Diff(baseTree, tipTree)
	if err != nil {
		return nil, err
	}
	s := &Scope{Declared: r.book().DeclaredScope(ch), Changed: []string{}}
	if anchor != baseTree {
		s.anchor = anchor
	}
	for _, f := range fd.Changes {
		s.Changed = append(s.Changed, f.Path)
		if slices.Contains(s.Declared, f.Path) {
			s.folders = append(s.folders, f)
		} else {
			s.Outside = append(s.Outside, f.Path)
		}
	}
	s.Changed = append(s.Changed, fd.Stray...)
	s.Outside = append(s.Outside, fd.Stray...)
	if outside {
		named, err := treesOf(r).OutsidePaths(baseTree, tipTree)
		if err != nil {
			return nil, err
		}
		s.Changed = append(s.Changed, named...)
		s.Outside = append(s.Outside, named...)
	}
	if ch.IsPolicy() {
		return s, p.policyScope(s, baseTree, tipTree)
	}
	return s, nil
}

// scopeBase is the tree of the merge base of start and the candidate, and anchor the
// channel's tree at the candidate's recorded base. A candidate that brought the publish branch
// in with a plain git merge rather than `skillgit rebase` has a merge base its trailers do not
// record, so git's is computed; otherwise the two are the same.
func (p planner) scopeBase(ch *ledger.Chain, start, startTree gitstore.Hash) (base, anchor gitstore.Hash, err error) {
	r := p.r
	recorded, merged, err := p.chainBase(ch)
	if err != nil {
		return gitstore.ZeroHash, gitstore.ZeroHash, err
	}
	if anchor, err = p.candidateBaseTree(ch, recorded, start, startTree); err != nil || !merged {
		return anchor, anchor, err
	}
	base, err = skilltree.MergeBaseTree(r.git, start, ch.Tip)
	return base, anchor, err
}

// refuse returns the error that stops action on a candidate whose branch changes paths
// outside its scope, naming them and what to do; nil when it is in scope.
func (s *Scope) refuse(id, action string) error {
	if s.InScope() {
		return nil
	}
	return fmt.Errorf("%s: %w: cannot %s: candidate/%s changes %s outside its scope (%s); "+
		"remove those changes from the branch (git revert the commits that made them) or reject it (`skillgit reject %s -m REASON`), "+
		"and propose each other skill separately with `skillgit propose`",
		id, ErrRefused, action, id, namePaths(s.Outside), strings.Join(s.Declared, ", "), id)
}

// namePaths joins paths for a message, cutting a long list short with a count.
func namePaths(ps []string) string {
	if len(ps) <= maxOutsideNamed {
		return strings.Join(ps, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ps[:maxOutsideNamed], ", "), len(ps)-maxOutsideNamed)
}
