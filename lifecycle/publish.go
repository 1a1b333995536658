package lifecycle

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// canaryRef is the canary channel: the publish branch plus canary publishes.
const canaryRef = "refs/heads/canary"

// Publish merges a candidate into the publish branch (or the canary channel) as a merge
// commit whose second parent is the candidate's tip. It re-runs the audit on exactly what is
// published, checks the policy, and refuses when the branch changed the same skill since the
// candidate was made.
func (r *Repo) Publish(id, channel string, o ActOptions) (*Result, error) {
	return r.publish(id, channel, "", o)
}

// publish publishes candidate id to channel, under the skill name as when it is not empty.
func (r *Repo) publish(id, channel, as string, o ActOptions) (*Result, error) {
	target, err := r.ChannelRef(channel)
	if err != nil {
		return nil, err
	}
	t, warn, ch, c, err := r.actOn(id, o)
	if err == nil {
		err = r.checkCandidatePaths(ch)
	}
	if err == nil {
		err = newPlanner(r).checkScope(ch, "publish")
	}
	if err == nil {
		err = r.checkPublishedOnce(ch, c, target)
	}
	if err == nil && as != "" {
		err = r.checkRenamable(ch, c, as)
	}
	if err != nil {
		return nil, err
	}
	id = ch.ID // the id of the candidate a skill name named
	if err := r.checkUnattended(ch, c, target, o); err != nil {
		return nil, err
	}
	if c.State == StateCanary && target == canaryRef {
		return nil, fmt.Errorf("%s: already published to canary; `skillgit publish %s` publishes it to %s", id, id, short(r.Branch))
	}
	res, err := t.retry(func() (*Result, error) { return r.publishOnce(t, ch, c, target, as, o) })
	if err != nil {
		return nil, err
	}
	res.addWarning(warn)
	r.warnDanglingProfiles(res)
	t.done(res)
	return res, nil
}

// checkPublishedOnce refuses a candidate whose tip the channel already holds: it was
// published there before, and a rollback since does not make its approvals count again.
func (r *Repo) checkPublishedOnce(ch *ledger.Chain, c *Candidate, target string) error {
	tip, err := r.Git.Ref(target)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		tip, err = r.Tip, nil // a canary channel not made yet starts at the publish branch
	}
	if err != nil {
		return err
	}
	merged, err := r.Git.IsAncestor(ch.Tip, tip)
	if err != nil || !merged {
		return err
	}
	return fmt.Errorf("%s: %w: %s already holds this candidate's tip: it was published before (and rolled back since, when %s no longer holds it); a candidate is published once, so propose that version again for new approvals: `skillgit propose %s --from-rev %s`",
		ch.ID, ErrRefused, short(target), c.Skill, c.Skill, shortID(ch.Tip.String()))
}

// ChannelRef maps a channel name, main (or empty) or canary, to its branch.
func (r *Repo) ChannelRef(channel string) (string, error) {
	switch channel {
	case "", "main", short(r.Branch):
		return r.Branch, nil
	case "canary":
		return canaryRef, nil
	}
	return "", fmt.Errorf("channel %q is not one of main, canary", channel)
}

// channelTip returns the tip of target and the commit a publish there starts from. An absent
// canary branch starts at the publish tip; a canary branch that lacks publishes made on the
// publish branch since starts from a commit that merges them in, so canary stays the publish
// branch plus canary publishes.
func (r *Repo) channelTip(t *tx, target string, o ActOptions) (old, start gitstore.Hash, err error) {
	h, err := r.Git.Ref(target)
	if target != canaryRef {
		return h, h, err
	}
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return gitstore.ZeroHash, r.Tip, nil
	}
	if err != nil {
		return h, h, err
	}
	behind, err := r.Git.IsAncestor(r.Tip, h)
	if err != nil || behind {
		return h, h, err
	}
	start, err = r.catchUpCanary(t, h, o)
	return h, start, err
}

// catchUpCanary writes a commit that merges the publish branch into the canary tip.
func (r *Repo) catchUpCanary(t *tx, canary gitstore.Hash, o ActOptions) (gitstore.Hash, error) {
	c, err := r.Git.Commit(canary)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	baseTree, err := mergeBaseTree(r.Git, canary, r.Tip)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	tree, conflicts, err := r.Git.MergeTrees(baseTree, c.TreeHash, r.Tree)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if len(conflicts) > 0 {
		return gitstore.ZeroHash, fmt.Errorf("canary: %w: canary and %s both changed %s since they parted; publish or roll back those canary skills on %s first",
			ErrConflict, short(r.Branch), strings.Join(conflicts, ", "), short(r.Branch))
	}
	ts := trailerList{}.add(keyAction, actSync).add(keyChannel, "canary")
	msg := ts.message("sync: canary with "+short(r.Branch), "Brings the publishes made on "+short(r.Branch)+" to the canary channel.", o)
	return t.commit(tree, msg, nil, canary, r.Tip)
}

// publishOnce computes and lands one publish on the current tip of target, under the skill
// name as when it is not empty.
func (r *Repo) publishOnce(t *tx, ch *ledger.Chain, c *Candidate, target, as string, o ActOptions) (*Result, error) {
	old, start, err := r.channelTip(t, target, o)
	if err != nil {
		return nil, err
	}
	var m *merge
	if as == "" {
		m, err = newPlanner(r).prepare(ch, start, target)
	} else {
		m, c, err = newPlanner(r).prepareAs(ch, c, start, target, as)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Action: actPublish, ID: ch.ID, Skill: c.Skill, Change: c.Change, Channel: short(target), PublishedAs: as}
	if err := r.checkPublish(m, c, ch, res, target, o); err != nil {
		return nil, err
	}
	msg := publishMessage(c, res, target, o)
	h, err := t.commit(m.tree, msg, nil, start, ch.Tip)
	if err != nil {
		return nil, err
	}
	if err := t.move(target, old, h, m.startTree, m.tree, m.paths()); err != nil {
		return nil, err
	}
	res.Commit, res.State = h.String(), StatePublished
	if target == canaryRef {
		res.State = StateCanary
	} else if err := t.moveCandidate(ch, gitstore.ZeroHash, actPublish); err != nil {
		res.addWarning(fmt.Sprintf("warning: %s: published, but its branch could not be removed: %v", ch.ID, err))
	}
	return res, nil
}

// checkPublish audits what is about to be published and applies the policy to it.
func (r *Repo) checkPublish(m *merge, c *Candidate, ch *ledger.Chain, res *Result, target string, o ActOptions) error {
	items := newPlanner(r).items(m.changes, c, ch)
	if ch.IsPolicy() {
		moved, err := newPlanner(r).checkPolicy(m, ch.ID)
		if err != nil {
			return err
		}
		items = append(items, moved...)
	}
	high, err := r.auditInto(items, res, o)
	if err != nil {
		return err
	}
	if ch.IsPolicy() && len(items) == 0 {
		res.Risk, res.Audit = "medium", policyAudit
	}
	if high {
		return fmt.Errorf("%s: %w: the audit rates it high risk, which cannot be published while the audit is on; `skillgit review %s` shows the findings", ch.ID, ErrRefused, ch.ID)
	}
	c.Risk = riskAtPublish(res)
	if err := r.checkUnattended(ch, c, target, o); err != nil {
		return err
	}
	if ok, why := ledger.ApprovedEnough(r.Config, c, c.Writers); !ok {
		return fmt.Errorf("%s: %w: not approved: %s; `skillgit approve %s` records an approval", ch.ID, ErrRefused, why, ch.ID)
	}
	return nil
}

func publishMessage(c *Candidate, res *Result, target string, o ActOptions) string {
	ts := trailerList{}.add(keyAction, actPublish).add(keySkill, c.Skill).add(keyCandidate, c.ID).
		add(keyPublishedAs, res.PublishedAs).add(keyChange, string(c.Change)).add(keyRisk, res.Risk).add(keyAudit, res.Audit).add(keyManagedBy, c.ManagedBy)
	for _, a := range c.Approvals {
		if a.Policy != "" {
			ts = ts.add(keyPolicy, a.Policy)
		} else {
			ts = ts.add(keyApproved, a.Who.String())
		}
	}
	for _, a := range publishAccepts(res.Reports) {
		ts = ts.add(keyAccept, a)
	}
	if target == canaryRef {
		ts = ts.add(keyChannel, "canary")
	}
	subject := fmt.Sprintf("publish: %s (candidate %s)", c.Skill, c.ID)
	if res.PublishedAs != "" {
		subject = fmt.Sprintf("publish: %s as %s (candidate %s)", c.Skill, res.PublishedAs, c.ID)
	}
	return ts.message(subject, "", o)
}
