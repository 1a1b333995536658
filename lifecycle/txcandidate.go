package lifecycle

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// idAttempts bounds the tries at a fresh candidate id.
const idAttempts = 8

// createCandidate writes the propose commit, whose message msg makes for an id, and creates
// its branch under a fresh id made from name. With approvals.signed, the commit is signed
// like an approval, and without a signing key nothing is proposed.
func (t *tx) createCandidate(tree gitstore.Hash, name string, msg func(id string) string, res *Result) error {
	sign, err := t.signer(name, "a proposal")
	if err != nil {
		return err
	}
	g := t.r.git
	for range idAttempts {
		id := newID(name)
		if _, err := g.Refs().Get(ArchivePrefix + id); err == nil {
			continue
		}
		h, err := t.commit(tree, msg(id), sign, t.r.tip)
		if err != nil {
			return err
		}
		err = g.Updates().Update(CandidatePrefix+id, h, gitstore.ZeroHash, "skillgit propose")
		if errors.Is(err, gitstore.ErrRefChanged) {
			continue
		}
		if err != nil {
			return err
		}
		res.ID, res.Branch, res.Commit, res.State = id, gitstore.ShortRef(CandidatePrefix+id), h.String(), StateOpen
		if sign != nil {
			t.warnUnverifiedContent(res, h)
		}
		return nil
	}
	return fmt.Errorf("%s: could not find a free candidate id in %d tries; try again", name, idAttempts)
}

// moveCandidate moves the branch of candidate ch from the tip it was read at to h (zero
// removes it) by compare-and-swap: a candidate that moved meanwhile was not the version acted
// on. action names the move in the reflog.
func (t *tx) moveCandidate(ch *ledger.Chain, h gitstore.Hash, action string) error {
	t.r.forgetOpen()
	return t.r.git.Updates().Update(ch.Ref, h, ch.Tip, "skillgit "+action)
}

// appendTo writes an empty commit on the candidate's tip, signed with sign when it is not
// nil, and moves its branch there.
func (t *tx) appendTo(ch *ledger.Chain, msg, action string, sign signer) (*Result, error) {
	h, err := t.commit(ch.Last().C.TreeHash, msg, sign, ch.Tip)
	if err != nil {
		return nil, err
	}
	if err := t.moveCandidate(ch, h, action); err != nil {
		if errors.Is(err, gitstore.ErrRefChanged) {
			return nil, fmt.Errorf("%s: the candidate changed while you acted on it; review it again: %w", ch.ID, err)
		}
		return nil, err
	}
	p := ch.Propose()
	return &Result{Action: action, ID: ch.ID, Branch: gitstore.ShortRef(ch.Ref), Skill: p.Claims.Get(keySkill),
		Change: Change(p.Claims.Get(keyChange)), Commit: h.String()}, nil
}

// archive points the archive ref at h, then removes the branch; if the branch moved
// meanwhile, the archive ref is taken back and the rejection fails.
func (t *tx) archive(ch *ledger.Chain, h gitstore.Hash) error {
	g := t.r.git
	t.r.forgetOpen()
	ref := ArchivePrefix + ch.ID
	if err := g.Updates().Update(ref, h, gitstore.ZeroHash, "skillgit reject"); err != nil {
		return err
	}
	if err := t.moveCandidate(ch, gitstore.ZeroHash, actReject); err != nil {
		_ = g.Updates().Update(ref, gitstore.ZeroHash, h, "skillgit reject undone")
		return fmt.Errorf("%s: the candidate changed while you rejected it; review it again: %w", ch.ID, err)
	}
	return nil
}
