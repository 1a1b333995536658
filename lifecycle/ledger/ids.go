package ledger

import (
	"fmt"
	"regexp"

	"github.com/skillgit/skillgit/gitstore"
)

// idPattern is what a candidate id looks like: a skill name and a random suffix.
var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,99}$`)

// CheckID refuses an id that cannot name a candidate.
func CheckID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("%q: %w: a candidate id is lowercase letters, digits and hyphens, like pdf-tools-7f3a; `skillgit candidates` lists them", id, ErrNotFound)
	}
	return nil
}

// ClaimedBase is the publish-branch commit the candidate was built on or last rebased onto, as
// its commits claim; chainBase checks the claims.
func ClaimedBase(ch *Chain) gitstore.Hash {
	for i := len(ch.Commits) - 1; i > 0; i-- {
		ci := ch.Commits[i]
		if ci.Claims.Get(KeyAction) == ActRebase && len(ci.C.ParentHashes) == 2 {
			return ci.C.ParentHashes[1]
		}
	}
	if ps := ch.Propose().C.ParentHashes; len(ps) > 0 {
		return ps[0]
	}
	return gitstore.ZeroHash
}

// lastContent returns the index of the last commit that changed the candidate's folder, or
// that changed anything else other than by `skillgit rebase`; the approvals after it are the
// ones that count. So an approval never outlives a commit that slipped other changes onto the
// branch, even one that `approve` and `publish` would refuse anyway.
func (b *Book) LastContent(ch *Chain) (int, error) {
	content, err := b.ContentCommits(ch)
	if err != nil {
		return 0, err
	}
	return content[len(content)-1], nil
}

// contentCommits returns the indexes, in order, of the commits that wrote the candidate's
// content: its propose commit, and each later commit that lastContent would take for the last.
func (b *Book) ContentCommits(ch *Chain) ([]int, error) {
	var prev string
	read := false
	out := []int{0}
	for i := 1; i < len(ch.Commits); i++ {
		ci := ch.Commits[i]
		if ci.C.TreeHash == ch.Commits[i-1].C.TreeHash && ci.Claims.Get(KeyAction) != ActRevise {
			continue // an approval, or any commit that keeps the tree, changes nothing
		}
		if !read {
			var err error
			if prev, err = b.ScopeKey(ch, ch.Commits[i-1].C.TreeHash); err != nil {
				return nil, err
			}
			read = true
		}
		cur, err := b.ScopeKey(ch, ci.C.TreeHash)
		if err != nil {
			return nil, err
		}
		if cur != prev || ci.Claims.Get(KeyAction) != ActRebase {
			out = append(out, i)
		}
		prev = cur
	}
	return out, nil
}
