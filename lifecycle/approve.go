package lifecycle

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Approve records sig's approval of a candidate's current tip as an empty commit on its
// branch. A later revise voids it.
func (r *Repo) Approve(id, note string, o ActOptions) (*Result, error) {
	return r.ApproveAccepting(id, note, nil, o)
}

// ApproveAccepting approves like Approve and, in the same commit, accepts the findings named
// by fingerprint (a Skillgit-Accept trailer each, the note being the reason). An accepted
// finding counts as resolved for this tip only: a revise voids the approval and with it the
// acceptance. The approver must not be one of the candidate's writers, every fingerprint
// must be in the audit of the current tip, and critical findings are never accepted.
func (r *Repo) ApproveAccepting(id, note string, accept []string, o ActOptions) (*Result, error) {
	t, warn, ch, c, err := r.actOn(id, o)
	if err == nil {
		err = r.checkCandidatePaths(ch)
	}
	if err != nil {
		return nil, err
	}
	a := &approval{t: t, o: o, ch: ch, c: c, note: note, accept: accept}
	if err := a.check(); err != nil {
		return nil, err
	}
	sign, err := t.signer(ch.ID, "an approval")
	if err != nil {
		return nil, err
	}
	ts, accepted, err := a.trailers()
	if err != nil {
		return nil, err
	}
	res, err := t.appendTo(ch, ts.message(fmt.Sprintf("approve: %s (candidate %s)", c.Skill, ch.ID), note, o), actApprove, sign)
	if err != nil {
		return nil, err
	}
	res.Accepted = accepted
	res.addWarning(warn)
	if res, err = withState(r.book(), res); err == nil && sign != nil {
		err = t.warnUnverified(res)
	}
	return res, err
}

// approval is an actor's approval of an open candidate's current tip, which accepts the
// findings named by fingerprint in accept, for the reason note.
type approval struct {
	t      *tx
	o      ActOptions
	ch     *ledger.Chain
	c      *Candidate
	note   string
	accept []string
}

// check refuses an approval of a candidate that changes anything outside its scope, an
// acceptance its actor may not make, and an approval its actor may not give.
func (a *approval) check() error {
	id, sig, c := a.ch.ID, a.t.sig, a.c
	if err := newPlanner(a.t.r).checkScope(a.ch, "approve"); err != nil {
		return err
	}
	if len(a.accept) > 0 {
		if err := checkAccepter(id, a.note, sig, c.Writers); err != nil {
			return err
		}
	}
	return a.checkApprover()
}

// trailers are the trailers of the approval commit, with the findings it accepts.
func (a *approval) trailers() (trailerList, []AcceptedFinding, error) {
	c := a.c
	ts := trailerList{}.add(keyAction, actApprove).add(keySkill, c.Skill).add(keyCandidate, a.ch.ID).add(keyApproved, actorOf(a.t.sig).String())
	if len(a.accept) == 0 {
		return ts, nil, nil
	}
	return a.acceptTrailers(ts)
}

// checkScope refuses to act on a candidate whose branch changes anything outside its scope
// against the publish branch.
func (p planner) checkScope(ch *ledger.Chain, action string) error {
	r := p.r
	s, err := p.scope(ch, r.tip, r.tree)
	if err != nil {
		return err
	}
	return s.refuse(ch.ID, action)
}

// checkApprover refuses an approval of content without a verified writer when approvals
// must be signed, an approval by a writer of the candidate (unless the policy allows it and
// nothing is accepted) and a second approval of the same tip by the same person that accepts
// nothing new, unless approvals must be signed and the first did not verify.
func (a *approval) checkApprover() error {
	cfg, id, sig, c := a.t.r.cfg, a.ch.ID, a.t.sig, a.c
	accepting := len(a.accept) > 0
	if cfg.Approvals.Signed && c.Unverified != "" {
		return fmt.Errorf("%s: %w: %s", id, ErrRefused, ledger.UnverifiedAdvice(c))
	}
	if !cfg.Approvals.AllowSelf && ledger.IsWriter(c.Writers, sig.Email) {
		return fmt.Errorf("%s: %w: %s wrote this candidate and approvals.allow_self is false; someone else must approve it", id, ErrRefused, actorOf(sig))
	}
	for _, ap := range c.Approvals {
		if !accepting && ap.Policy == "" && strings.EqualFold(ap.Who.Email, sig.Email) && (ap.Signed || !cfg.Approvals.Signed) {
			return fmt.Errorf("%s: %s already approved this version of the candidate", id, actorOf(sig))
		}
	}
	return nil
}

// acceptTrailers resolves the findings to accept and adds their trailers to ts: one
// Skillgit-Accept per finding and the risk that remains once they are accepted.
func (a *approval) acceptTrailers(ts trailerList) (trailerList, []AcceptedFinding, error) {
	found, risk, err := a.acceptFindings()
	if err != nil {
		return nil, nil, err
	}
	out := make([]AcceptedFinding, 0, len(found))
	for _, f := range found {
		ts = ts.add(keyAccept, acceptTrailer(f))
		out = append(out, AcceptedFinding{Fingerprint: f.Fingerprint, Rule: f.RuleID, Path: f.File})
	}
	return ts.add(keyRisk, risk.String()), out, nil
}

// withState fills in the state of the candidate an action acted on, as bk reads it after.
func withState(bk *ledger.Book, res *Result) (*Result, error) {
	c, err := bk.Candidate(res.ID)
	if err != nil {
		return nil, err
	}
	res.State, res.Risk, res.Audit = c.State, c.Risk, c.Audit
	return res, nil
}

// Reject records why a candidate is turned down and moves its branch to
// refs/skillgit/archive/<id>, where it stays reachable.
func (r *Repo) Reject(id, reason string, o ActOptions) (*Result, error) {
	if reason == "" {
		return nil, fmt.Errorf("%s: a rejection needs a reason (-m REASON)", id)
	}
	t, warn, ch, c, err := r.actOn(id, o)
	if err != nil {
		return nil, err
	}
	id = ch.ID // the id of the candidate a skill name named
	ts := trailerList{}.add(keyAction, actReject).add(keySkill, c.Skill).add(keyCandidate, id).add(keyRejected, actorOf(t.sig).String())
	h, err := t.commit(ch.Last().C.TreeHash, ts.message(fmt.Sprintf("reject: %s (candidate %s)", c.Skill, id), reason, o), nil, ch.Tip)
	if err != nil {
		return nil, err
	}
	if err := t.archive(ch, h); err != nil {
		return nil, err
	}
	res := &Result{Action: actReject, ID: id, Branch: gitstore.ShortRef(ArchivePrefix + id), Skill: c.Skill, Change: c.Change,
		Commit: h.String(), State: StateRejected, Risk: c.Risk, Audit: c.Audit}
	res.addWarning(warn)
	return res, nil
}
