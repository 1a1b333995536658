package ledger

import "github.com/skillgit/skillgit/gitstore"

// maxUnpushed bounds how many local publishes a walk goes back over to find where the local
// publish branch left a remote's.
const maxUnpushed = 200

// LocalPublish is a publish on the local publish branch: its commit, the candidate and skill
// it published, and the candidate's tip it merged.
type LocalPublish struct {
	Commit    gitstore.Hash
	ID, Skill string
	Candidate gitstore.Hash
}

// LocalPublishes walks the publish branch's first parents from tip back to the remote's
// history (a commit that rt contains) and returns the publishes met, newest first. ok is
// false when a commit on the way is not a skillgit publish or the walk is too long.
func (t Trail) LocalPublishes(tip, rt gitstore.Hash) (pubs []LocalPublish, ok bool, err error) {
	h := tip
	for range maxUnpushed {
		if t.b.Descends(rt, h) {
			return pubs, true, nil
		}
		ci, err := t.b.readCommit(h)
		if err != nil {
			return nil, false, err
		}
		id := ci.Claims.Get(KeyCandidate)
		if ci.Claims.Get(KeyAction) != ActPublish || len(ci.C.ParentHashes) != 2 || CheckID(id) != nil || ci.Claims.Get(KeyChannel) != "" {
			return pubs, false, nil
		}
		pubs = append(pubs, LocalPublish{Commit: h, ID: id, Skill: ci.Claims.Get(KeySkill), Candidate: ci.C.ParentHashes[1]})
		h = ci.C.ParentHashes[0]
	}
	return pubs, false, nil
}
