package lifecycle

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/lifecycle/policy"
)

// errNotAutomated stops the mode from acting on a candidate it must leave to people.
var errNotAutomated = errors.New("left to people")

// automate lets the mode act on a fresh proposal or revision of r, whose result is res
// (DESIGN.md §3): in assisted mode a low-risk patch is approved by policy; in autonomous mode
// a low-risk patch is also published, and a low-risk new skill is published to the canary
// channel only. Medium and high risk, skipped audits and deletions are never automatic.
func automate(r *Repo, res *Result, o ActOptions) error {
	return (&automation{r: r, res: res, o: o}).run()
}

// automation is what the mode does on its own with a fresh proposal or revision, whose
// result res records it.
type automation struct {
	r   *Repo
	res *Result
	o   ActOptions
}

// run is automate.
func (a *automation) run() error {
	r, res, o := a.r, a.res, a.o
	mode := r.cfg.Mode
	if mode == policy.ModeManual || res.Risk != "low" || res.Change == ChangeDelete || a.leaveDuplicate() {
		return nil
	}
	if res.Change == ChangeCreate && mode != policy.ModeAutonomous {
		return nil
	}
	if why := a.leaveToPeople(); why != "" {
		res.addWarning(fmt.Sprintf("warning: %s: %s; mode %s does not approve or publish it", res.ID, why, mode))
		return nil
	}
	sig, _, err := r.Actor(o)
	if err != nil {
		return err
	}
	if err := a.approve(&tx{r: r, sig: sig}); errors.Is(err, errNotAutomated) {
		return nil
	} else if err != nil {
		return err
	}
	channel, _ := autoChannel(mode, res.Risk, res.Change, false)
	if channel == "" {
		return nil
	}
	pub, err := r.Publish(res.ID, channel, o)
	if err != nil {
		return fmt.Errorf("%s: approved by policy %s, but the automatic publish failed: %w", res.ID, mode, err)
	}
	res.Auto = append(res.Auto, fmt.Sprintf("published to %s by policy %s (low-risk %s)", pub.Channel, mode, res.Change))
	res.State, res.Commit = pub.State, pub.Commit
	return nil
}

// approve approves the candidate by policy, unless its scope refuses it (errNotAutomated).
func (a *automation) approve(t *tx) error {
	r, res, o, mode := a.r, a.res, a.o, a.r.cfg.Mode
	ref, tip, err := r.book().FindCandidate(res.ID)
	if err != nil {
		return err
	}
	ch, err := r.loadChain(res.ID, ref, tip)
	if err != nil {
		return err
	}
	if err := newPlanner(r).checkScope(ch, "approve"); err != nil {
		res.addWarning(fmt.Sprintf("warning: %v; mode %s does not approve it", err, mode))
		return errNotAutomated
	}
	ts := trailerList{}.add(keyAction, actApprove).add(keySkill, res.Skill).add(keyCandidate, res.ID).add(keyPolicy, string(mode))
	body := fmt.Sprintf("Approved by policy: mode %s approves a low-risk %s.", mode, res.Change)
	ar, err := t.appendTo(ch, ts.message(fmt.Sprintf("approve: %s (candidate %s)", res.Skill, res.ID), body, o), actApprove, nil)
	if err != nil {
		return err
	}
	res.Commit, res.State = ar.Commit, StateApproved
	res.Auto = append(res.Auto, fmt.Sprintf("approved by policy %s (low-risk %s)", mode, res.Change))
	return nil
}
