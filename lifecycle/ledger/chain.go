package ledger

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/termtext"
)

// maxChain bounds how many commits one candidate branch may hold.
const maxChain = 1000

// ChangePolicy is the Skillgit-Change of a candidate that changes the repository's policy.
const ChangePolicy = "policy"

// Commit is a commit with what its message claims.
type Commit struct {
	Hash   gitstore.Hash
	C      *object.Commit
	Claims Claims
}

// Action is what the commit claims to do.
func (c Commit) Action() string { return c.Claims.Get(KeyAction) }

// Label names the commit in messages: its id cut to twelve digits, and its subject, cut to n
// bytes, quoted.
func (c Commit) Label(n int) string {
	subject, _, _ := CutSubject(c.C.Message)
	return fmt.Sprintf("%s (%q)", gitstore.ShortHash(c.Hash.String()), termtext.Cut(subject, n))
}

// ReadCommit reads commit h and its claims.
func ReadCommit(s Store, h gitstore.Hash) (Commit, error) {
	c, err := s.Commit(h)
	if err != nil {
		return Commit{}, fmt.Errorf("commit %s: %w", h, err)
	}
	return Commit{Hash: h, C: c, Claims: ParseClaims(c.Message)}, nil
}

// Chain is a candidate's commits: from its propose commit to its tip, following first
// parents.
type Chain struct {
	ID  string
	Ref string
	Tip gitstore.Hash
	// Commits runs from the propose commit to the tip.
	Commits []Commit
}

// Propose is the commit that proposed the candidate.
func (ch *Chain) Propose() Commit { return ch.Commits[0] }

// Last is the candidate's tip commit.
func (ch *Chain) Last() Commit { return ch.Commits[len(ch.Commits)-1] }

// Path is the skill folder the candidate proposes to change, as its propose commit declares.
func (ch *Chain) Path() string { return ch.Propose().Claims.Get(KeyPath) }

// Skill is the name of the skill the candidate changes, as its propose commit declares.
func (ch *Chain) Skill() string { return ch.Propose().Claims.Get(KeySkill) }

// Change is what the candidate does to its skill: create, patch, delete or policy.
func (ch *Chain) Change() string { return ch.Propose().Claims.Get(KeyChange) }

// IsPolicy reports whether the candidate changes the repository's policy.
func (ch *Chain) IsPolicy() bool { return ch.Change() == ChangePolicy }

// Rejected reports whether the chain holds a rejection: a rejected candidate is never
// published, and the approvals it had before do not count again.
func (ch *Chain) Rejected() bool {
	for _, c := range ch.Commits[1:] {
		if c.Action() == ActReject {
			return true
		}
	}
	return false
}

// LoadChain reads candidate id's commits back from tip, held by ref, to its propose commit.
func LoadChain(s Store, id, ref string, tip gitstore.Hash) (*Chain, error) {
	ch := &Chain{ID: id, Ref: ref, Tip: tip}
	h := tip
	for range maxChain {
		c, err := ReadCommit(s, h)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		ch.Commits = append(ch.Commits, c)
		if c.Action() == ActPropose && c.Claims.Get(KeyCandidate) == id {
			reverse(ch.Commits)
			return ch, nil
		}
		if len(c.C.ParentHashes) == 0 {
			break
		}
		h = c.C.ParentHashes[0]
	}
	return nil, fmt.Errorf("%s: %s holds no skillgit propose commit for this id within %d commits; it is not a candidate skillgit can read", id, ref, maxChain)
}

// chainAt reads the candidate whose tip is h: back along first parents to the newest
// propose commit, whose Skillgit-Candidate names it. It fails when there is none.
func chainAt(s Store, h gitstore.Hash) (*Chain, error) {
	c, err := ReadCommit(s, h)
	if err != nil {
		return nil, err
	}
	cur := c
	for range maxChain {
		if id := cur.Claims.Get(KeyCandidate); cur.Action() == ActPropose && id != "" {
			return LoadChain(s, id, "", h)
		}
		if len(cur.C.ParentHashes) == 0 {
			break
		}
		if cur, err = ReadCommit(s, cur.C.ParentHashes[0]); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("commit %s is not the tip of a candidate: no propose commit behind it", shortHash(h))
}

// ScopeKey names the version of what the candidate changes in root tree tree: the folder
// of a skill candidate; for a policy candidate, each path its propose commit declares
// outside skillsDir.
func (ch *Chain) ScopeKey(s Store, skillsDir string, tree gitstore.Hash) (string, error) {
	if !ch.IsPolicy() {
		h, err := folderAt(s, tree, ch.Path())
		return h.String(), err
	}
	var b strings.Builder
	for _, p := range ch.Propose().Claims.All(KeyPath) {
		if p == skillsDir || strings.HasPrefix(p, skillsDir+"/") {
			continue
		}
		e, _, err := s.EntryAt(tree, p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s %o %s\n", p, uint32(e.Mode), e.Hash)
	}
	return b.String(), nil
}

// LastContent returns the index of the last commit that changed the candidate's scope, or
// changed anything else other than by `skillgit rebase`: the approvals after it are the ones
// that can count. So an approval never outlives a commit that slipped other changes onto the
// branch.
func (ch *Chain) LastContent(s Store, skillsDir string) (int, error) {
	var prev string
	read := false
	last := 0
	for i := 1; i < len(ch.Commits); i++ {
		c := ch.Commits[i]
		if c.C.TreeHash == ch.Commits[i-1].C.TreeHash && c.Action() != ActRevise {
			continue // an approval, or any commit that keeps the tree, changes nothing
		}
		if !read {
			var err error
			if prev, err = ch.ScopeKey(s, skillsDir, ch.Commits[i-1].C.TreeHash); err != nil {
				return 0, err
			}
			read = true
		}
		cur, err := ch.ScopeKey(s, skillsDir, c.C.TreeHash)
		if err != nil {
			return 0, err
		}
		if cur != prev || c.Action() != ActRebase {
			last = i
		}
		prev = cur
	}
	return last, nil
}

// Approvals are the approval commits after the last content commit: those that approve the
// tip's content.
func (ch *Chain) Approvals(s Store, skillsDir string) ([]Commit, error) {
	last, err := ch.LastContent(s, skillsDir)
	if err != nil {
		return nil, err
	}
	var out []Commit
	for _, c := range ch.Commits[last+1:] {
		if c.Action() == ActApprove {
			out = append(out, c)
		}
	}
	return out, nil
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// shortHash cuts a commit id to the twelve digits messages show.
func shortHash(h gitstore.Hash) string { return h.String()[:12] }
