package lifecycle

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
)

// Where candidates live (DESIGN.md §2.3).
const (
	// CandidatePrefix starts the name of a candidate's branch.
	CandidatePrefix = "refs/heads/candidate/"
	// ArchivePrefix starts the name of the ref that keeps a rejected candidate.
	ArchivePrefix = "refs/skillgit/archive/"
	// maxChain bounds how many commits one candidate branch may hold.
	maxChain = 1000
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

// chain is a candidate's commits, read from its branch.
type chain struct {
	id  string
	ref string
	tip gitstore.Hash
	// commits runs from the propose commit to the tip, following first parents.
	commits []commitInfo
}

func (ch *chain) propose() commitInfo { return ch.commits[0] }
func (ch *chain) last() commitInfo    { return ch.commits[len(ch.commits)-1] }
func (ch *chain) path() string        { return ch.propose().get(keyPath) }

// rejected reports whether the chain holds a rejection, as a branch made again at a rejected
// candidate's archived tip does: its approvals never count again.
func (ch *chain) rejected() bool {
	for _, ci := range ch.commits[1:] {
		if ci.get(keyAction) == actReject {
			return true
		}
	}
	return false
}

// loadChain reads a candidate's commits back from tip to its propose commit.
func (r *Repo) loadChain(id, ref string, tip gitstore.Hash) (*chain, error) {
	ch := &chain{id: id, ref: ref, tip: tip}
	h := tip
	for range maxChain {
		ci, err := r.commitInfo(h)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		ch.commits = append(ch.commits, ci)
		if ci.get(keyAction) == actPropose && ci.get(keyCandidate) == id {
			reverse(ch.commits)
			return ch, nil
		}
		if len(ci.c.ParentHashes) == 0 {
			break
		}
		h = ci.c.ParentHashes[0]
	}
	return nil, fmt.Errorf("%s: %s holds no skillgit propose commit for this id within %d commits; it is not a candidate skillgit can read", id, ref, maxChain)
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

// base is the publish-branch commit the candidate was built on or last rebased onto.
func (ch *chain) base() gitstore.Hash {
	for i := len(ch.commits) - 1; i > 0; i-- {
		ci := ch.commits[i]
		if ci.get(keyAction) == actRebase && len(ci.c.ParentHashes) == 2 {
			return ci.c.ParentHashes[1]
		}
	}
	if ps := ch.propose().c.ParentHashes; len(ps) > 0 {
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
func (r *Repo) chainBase(ch *chain) (base gitstore.Hash, merged bool, err error) {
	if ps := ch.propose().c.ParentHashes; len(ps) > 0 {
		base = ps[0]
	}
	for i := 1; i < len(ch.commits); i++ {
		ci := ch.commits[i]
		if len(ci.c.ParentHashes) < 2 {
			continue
		}
		ok := false
		if ci.get(keyAction) == actRebase && len(ci.c.ParentHashes) == 2 {
			if ok, err = r.rebaseHolds(ch, base, ch.commits[i-1].c.TreeHash, ci); err != nil {
				return gitstore.ZeroHash, false, err
			}
		}
		if ok {
			base = ci.c.ParentHashes[1]
		} else {
			merged = true
		}
	}
	return base, merged, nil
}

// rebaseHolds reports whether the rebase commit ci, made on a candidate whose tree was before
// and whose base was base, holds in the declared paths what `skillgit rebase` writes there:
// the three-way merge, from what base holds in them, of before and of ci's second parent.
func (r *Repo) rebaseHolds(ch *chain, base, before gitstore.Hash, ci commitInfo) (bool, error) {
	onto, err := r.treeOf(ci.c.ParentHashes[1])
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
	got, err := r.scopeKey(ch, ci.c.TreeHash)
	return err == nil && got == want, err
}

// withDeclared returns tree with each of the candidate's declared paths as from holds it.
func (r *Repo) withDeclared(ch *chain, tree, from gitstore.Hash) (gitstore.Hash, error) {
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
func (r *Repo) lastContent(ch *chain) (int, error) {
	content, err := r.contentCommits(ch)
	if err != nil {
		return 0, err
	}
	return content[len(content)-1], nil
}

// contentCommits returns the indexes, in order, of the commits that wrote the candidate's
// content: its propose commit, and each later commit that lastContent would take for the last.
func (r *Repo) contentCommits(ch *chain) ([]int, error) {
	var prev string
	read := false
	out := []int{0}
	for i := 1; i < len(ch.commits); i++ {
		ci := ch.commits[i]
		if ci.c.TreeHash == ch.commits[i-1].c.TreeHash && ci.get(keyAction) != actRevise {
			continue // an approval, or any commit that keeps the tree, changes nothing
		}
		if !read {
			var err error
			if prev, err = r.scopeKey(ch, ch.commits[i-1].c.TreeHash); err != nil {
				return nil, err
			}
			read = true
		}
		cur, err := r.scopeKey(ch, ci.c.TreeHash)
		if err != nil {
			return nil, err
		}
		if cur != prev || ci.get(keyAction) != actRebase {
			out = append(out, i)
		}
		prev = cur
	}
	return out, nil
}
