package lifecycle

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/pathcheck"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// Where candidates live (DESIGN.md §2.3).
const (
	// CandidatePrefix starts the name of a candidate's branch.
	CandidatePrefix = "refs/heads/candidate/"
	// ArchivePrefix starts the name of the ref that keeps a rejected candidate.
	ArchivePrefix = "refs/skillgit/archive/"
)

// newID returns a fresh candidate id for skill: the name and four random hex digits, so an id
// is short enough to type and two agents proposing at once do not collide (the branch is
// created by compare-and-swap, which catches the rest).
func newID(skill string) string {
	var b [2]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return skill + "-" + hex.EncodeToString(b[:])
}

// loadChain reads a candidate's commits back from tip to its propose commit.
func (r *Repo) loadChain(id, ref string, tip gitstore.Hash) (*ledger.Chain, error) {
	return ledger.LoadChain(ledger.StoreOf(r.git), id, ref, tip)
}

// FolderAt returns the tree of folder p in the tree, or ZeroHash when there is none.
func (r *Repo) FolderAt(tree gitstore.Hash, p string) (gitstore.Hash, error) {
	return skilltree.FolderAt(r.git, tree, p)
}

// chainBase is the publish-branch commit the candidate was proposed on or last rebased onto,
// as its own skillgit commits record it (the publish branch's folders are compared with the
// candidate's from there), and whether its branch holds a merge that is not such a rebase. A
// merge that calls itself a rebase counts as one only when its declared paths hold what
// merging its second parent from the base before it makes there: a `git merge -s ours` with
// a rebase's trailers keeps the candidate's folder, and so leaves the base where it was.
func (p planner) chainBase(ch *ledger.Chain) (base gitstore.Hash, merged bool, err error) {
	if ps := ch.Propose().C.ParentHashes; len(ps) > 0 {
		base = ps[0]
	}
	for i := 1; i < len(ch.Commits); i++ {
		ci := ch.Commits[i]
		if len(ci.C.ParentHashes) < 2 {
			continue
		}
		ok := false
		if ci.Claims.Get(keyAction) == actRebase && len(ci.C.ParentHashes) == 2 {
			if ok, err = p.rebaseHolds(ch, base, ch.Commits[i-1].C.TreeHash, ci); err != nil {
				return gitstore.ZeroHash, false, err
			}
		}
		if ok {
			base = ci.C.ParentHashes[1]
		} else {
			merged = true
		}
	}
	return base, merged, nil
}

// rebaseHolds reports whether the rebase commit ci, made on a candidate whose tree was before
// and whose base was base, holds in the declared paths what `skillgit rebase` writes there:
// the three-way merge, from what base holds in them, of before and of ci's second parent.
func (p planner) rebaseHolds(ch *ledger.Chain, base, before gitstore.Hash, ci ledger.Commit) (bool, error) {
	r := p.r
	onto, err := r.treeOf(ci.C.ParentHashes[1])
	if err != nil {
		return false, err
	}
	baseTree := gitstore.ZeroHash
	if !base.IsZero() {
		if baseTree, err = r.treeOf(base); err != nil {
			return false, err
		}
	}
	// Outside the declared paths the merge keeps before, whatever the base held there.
	from, err := p.withDeclared(ch, onto, baseTree)
	if err != nil {
		return false, err
	}
	merged, conflicts, err := r.git.Writes().MergeTrees(from, before, onto)
	if err != nil || len(conflicts) > 0 {
		return false, err
	}
	want, err := r.book().ScopeKey(ch, merged)
	if err != nil {
		return false, err
	}
	got, err := r.book().ScopeKey(ch, ci.C.TreeHash)
	return err == nil && got == want, err
}

// withDeclared returns tree with each of the candidate's declared paths as from holds it.
func (p planner) withDeclared(ch *ledger.Chain, tree, from gitstore.Hash) (gitstore.Hash, error) {
	bk := p.r.book()
	for _, d := range bk.DeclaredScope(ch) {
		e, err := bk.EntryAt(from, d)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		var put *gitstore.TreeEntry
		if !e.Hash.IsZero() {
			put = &e
		}
		if tree, err = p.r.git.Writes().ReplacePath(tree, d, put); err != nil {
			return gitstore.ZeroHash, err
		}
	}
	return tree, nil
}

// checkCandidatePaths refuses a candidate whose skill folder, as its tip holds it, breaks
// the path policy: approve and publish never pass on what propose would have refused,
// however the branch was written.
func (r *Repo) checkCandidatePaths(ch *ledger.Chain) error {
	dir := ch.Path()
	folder, err := r.FolderAt(ch.Last().C.TreeHash, dir)
	if err != nil || folder.IsZero() {
		return err
	}
	if err := pathcheck.Tree(r.git, dir, folder); err != nil {
		return fmt.Errorf("%s: %w", ch.ID, err)
	}
	return nil
}
