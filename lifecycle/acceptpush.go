package lifecycle

import (
	"errors"
	"path"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// maxAcceptWalk bounds the commits of a pushed range searched for accepted findings.
const maxAcceptWalk = 1000

// pushedAccepts returns, by skill folder, the findings accepted for what a push from base to
// head brings: by the approvals of the candidate head is the tip of, and of every candidate a
// commit on head's first-parent line back to base merged. Acceptances are read from the
// candidates' own approval commits, never from a publish commit's trailers, and count only
// where the approver is not one of the candidate's writers and no revise followed them.
func (r *Repo) pushedAccepts(base, head gitstore.Hash) (map[string]auditrun.Accepted, error) {
	out := map[string]auditrun.Accepted{}
	n := 0
	err := r.git.History().WalkFirstParent(head, func(h gitstore.Hash, c *object.Commit) error {
		if h == base || n >= maxAcceptWalk {
			return gitstore.ErrStop
		}
		if n++; n == 1 {
			r.addChainAccepts(out, h, "", gitstore.ZeroHash)
		}
		if len(c.ParentHashes) == 2 {
			as := ledger.Commit{Claims: ledger.ParseClaims(c.Message)}.Claims.Get(keyPublishedAs)
			r.addChainAccepts(out, c.ParentHashes[1], as, c.ParentHashes[0])
		}
		return nil
	})
	if err != nil && !errors.Is(err, gitstore.ErrStop) {
		return nil, err
	}
	return out, nil
}

// isNewFolder says whether dir, where a publish merge says it put a candidate under another
// name, is absent from the merge's first parent. A publish under another name only ever
// creates a skill, so a merge that claims to rename into an existing folder does not carry
// the candidate's acceptances there.
func (r *Repo) isNewFolder(firstParent gitstore.Hash, dir string) bool {
	tree, err := r.treeOf(firstParent)
	if err != nil {
		return false
	}
	_, found, err := r.git.Objects().EntryAt(tree, dir)
	return err == nil && !found
}

// addChainAccepts adds the acceptances of the candidate whose tip is tip, if it is one. as is
// the name a publish merge published it under, if another: when that folder is new in the
// merge (firstParent lacks it), they apply to it, under the name they were given.
func (r *Repo) addChainAccepts(out map[string]auditrun.Accepted, tip gitstore.Hash, as string, firstParent gitstore.Hash) {
	ci, err := r.readCommit(tip)
	if err != nil || ci.Claims.Get(keyCandidate) == "" || ci.Claims.Get(keyAction) == actPublish {
		return
	}
	ch, err := r.loadChain(ci.Claims.Get(keyCandidate), "", tip)
	if err != nil {
		return // not a chain skillgit can read: nothing is accepted
	}
	c, err := r.book().CandidateOf(ch, false)
	if err != nil {
		return
	}
	dir, pa := c.Path, auditrun.Accepted{}
	if renamed := path.Join(path.Dir(c.Path), as); as != "" && catalog.CheckSkillName(as) == nil && r.isNewFolder(firstParent, renamed) {
		dir, pa.As = renamed, c.Skill
	}
	pa.Allows = append(out[dir].Allows, acceptedAllows(c, c.Writers, r.cfg.Approvals.Signed)...)
	out[dir] = pa
}
