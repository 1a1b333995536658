package lifecycle

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Where candidates live (DESIGN.md §2.3).
const (
	// CandidatePrefix starts the name of a candidate's branch.
	CandidatePrefix = "refs/heads/candidate/"
	// ArchivePrefix starts the name of the ref that keeps a rejected candidate.
	ArchivePrefix = "refs/skillgit/archive/"
)

// idPattern is what a candidate id looks like: a skill name and a random suffix.
var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,99}$`)

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

// CheckID refuses an id that cannot name a candidate.
func CheckID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("%q: %w: a candidate id is lowercase letters, digits and hyphens, like pdf-tools-7f3a; `skillgit candidates` lists them", id, ErrNotFound)
	}
	return nil
}

// loadChain reads a candidate's commits back from tip to its propose commit.
func (r *Repo) loadChain(id, ref string, tip gitstore.Hash) (*ledger.Chain, error) {
	return ledger.LoadChain(r.Git, id, ref, tip)
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// FolderAt returns the tree of folder p in the tree, or ZeroHash when there is none.
func (r *Repo) FolderAt(tree gitstore.Hash, p string) (gitstore.Hash, error) {
	if tree.IsZero() {
		return gitstore.ZeroHash, nil
	}
	e, ok, err := r.Git.EntryAt(tree, p)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return gitstore.ZeroHash, err
	}
	return e.Hash, nil
}

// claimedBase is the publish-branch commit the candidate was built on or last rebased onto, as
// its commits claim; chainBase checks the claims.
func claimedBase(ch *ledger.Chain) gitstore.Hash {
	for i := len(ch.Commits) - 1; i > 0; i-- {
		ci := ch.Commits[i]
		if ci.Claims.Get(keyAction) == actRebase && len(ci.C.ParentHashes) == 2 {
			return ci.C.ParentHashes[1]
		}
	}
	if ps := ch.Propose().C.ParentHashes; len(ps) > 0 {
		return ps[0]
	}
	return gitstore.ZeroHash
}

// chainBase is the publish-branch commit the candidate was proposed on or last rebased onto,
// as its own skillgit commits record it (the publish branch's folders are compared with the
// candidate's from there), and whether its branch holds a merge that is not such a rebase. A
// merge that calls itself a rebase counts as one only when its declared paths hold what
// merging its second parent from the base before it makes there: a `git merge -s ours` with
// a rebase's trailers keeps the candidate's folder, and so leaves the base where it was.
func (r *Repo) chainBase(ch *ledger.Chain) (base gitstore.Hash, merged bool, err error) {
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
			if ok, err = r.rebaseHolds(ch, base, ch.Commits[i-1].C.TreeHash, ci); err != nil {
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
func (r *Repo) rebaseHolds(ch *ledger.Chain, base, before gitstore.Hash, ci ledger.Commit) (bool, error) {
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
	from, err := r.withDeclared(ch, onto, baseTree)
	if err != nil {
		return false, err
	}
	merged, conflicts, err := r.Git.MergeTrees(from, before, onto)
	if err != nil || len(conflicts) > 0 {
		return false, err
	}
	want, err := r.scopeKey(ch, merged)
	if err != nil {
		return false, err
	}
	got, err := r.scopeKey(ch, ci.C.TreeHash)
	return err == nil && got == want, err
}

// withDeclared returns tree with each of the candidate's declared paths as from holds it.
func (r *Repo) withDeclared(ch *ledger.Chain, tree, from gitstore.Hash) (gitstore.Hash, error) {
	for _, p := range r.declaredScope(ch) {
		e, err := r.entryAt(from, p)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		var put *gitstore.TreeEntry
		if !e.Hash.IsZero() {
			put = &e
		}
		if tree, err = r.Git.ReplacePath(tree, p, put); err != nil {
			return gitstore.ZeroHash, err
		}
	}
	return tree, nil
}

// lastContent returns the index of the last commit that changed the candidate's folder, or
// that changed anything else other than by `skillgit rebase`; the approvals after it are the
// ones that count. So an approval never outlives a commit that slipped other changes onto the
// branch, even one that `approve` and `publish` would refuse anyway.
func (r *Repo) lastContent(ch *ledger.Chain) (int, error) {
	content, err := r.contentCommits(ch)
	if err != nil {
		return 0, err
	}
	return content[len(content)-1], nil
}

// contentCommits returns the indexes, in order, of the commits that wrote the candidate's
// content: its propose commit, and each later commit that lastContent would take for the last.
func (r *Repo) contentCommits(ch *ledger.Chain) ([]int, error) {
	var prev string
	read := false
	out := []int{0}
	for i := 1; i < len(ch.Commits); i++ {
		ci := ch.Commits[i]
		if ci.C.TreeHash == ch.Commits[i-1].C.TreeHash && ci.Claims.Get(keyAction) != actRevise {
			continue // an approval, or any commit that keeps the tree, changes nothing
		}
		if !read {
			var err error
			if prev, err = r.scopeKey(ch, ch.Commits[i-1].C.TreeHash); err != nil {
				return nil, err
			}
			read = true
		}
		cur, err := r.scopeKey(ch, ci.C.TreeHash)
		if err != nil {
			return nil, err
		}
		if cur != prev || ci.Claims.Get(keyAction) != actRebase {
			out = append(out, i)
		}
		prev = cur
	}
	return out, nil
}
