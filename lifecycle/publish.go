package lifecycle

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// canaryRef is the canary channel: the publish branch plus canary publishes.
const canaryRef = "refs/heads/canary"

// Publish merges a candidate into the publish branch (or the canary channel) as a merge
// commit whose second parent is the candidate's tip. It re-runs the audit on exactly what is
// published, checks the policy, and refuses when the branch changed the same skill since the
// candidate was made.
func (r *Repo) Publish(id, channel string, o ActOptions) (*Result, error) {
	return publish(r, id, channel, "", o)
}

// publish publishes candidate id of r to channel, under the skill name as when it is not
// empty.
func publish(r *Repo, id, channel, as string, o ActOptions) (*Result, error) {
	p, warn, err := newPublication(r, id, channel, as, o)
	if err != nil {
		return nil, err
	}
	res, err := p.t.retry(p.once)
	if err != nil {
		return nil, err
	}
	res.addWarning(warn)
	p.t.warnDanglingProfiles(res)
	p.t.done(res)
	return res, nil
}

// publication is the publish of one open candidate to a channel by an actor, under the skill
// name as when it is not empty.
type publication struct {
	t  *tx
	o  ActOptions
	ch *ledger.Chain
	c  *Candidate
	// target is the channel's branch.
	target, as string
}

// newPublication reads the candidate id names and refuses a publish that cannot be made
// whatever the channel holds; warn is the warning of resolving who acts.
func newPublication(r *Repo, id, channel, as string, o ActOptions) (*publication, string, error) {
	target, err := r.ChannelRef(channel)
	if err != nil {
		return nil, "", err
	}
	t, warn, ch, c, err := r.actOn(id, o)
	if err != nil {
		return nil, "", err
	}
	p := &publication{t: t, o: o, ch: ch, c: c, target: target, as: as}
	if err := p.check(); err != nil {
		return nil, "", err
	}
	return p, warn, nil
}

// check refuses a candidate whose paths break the path policy or that changes anything
// outside its scope, one already published to the channel, one that cannot take the name as,
// one an unattended actor may not publish, and a second publish to canary.
func (p *publication) check() error {
	r, ch := p.t.r, p.ch
	err := r.checkCandidatePaths(ch)
	if err == nil {
		err = newPlanner(r).checkScope(ch, "publish")
	}
	if err == nil {
		err = p.publishedOnce()
	}
	if err == nil && p.as != "" {
		err = p.renamable()
	}
	if err == nil {
		err = p.checkUnattended(p.c)
	}
	if err != nil {
		return err
	}
	if p.c.State == StateCanary && p.target == canaryRef {
		return fmt.Errorf("%s: already published to canary; `skillgit publish %s` publishes it to %s", ch.ID, ch.ID, gitstore.ShortRef(r.branch))
	}
	return nil
}

// publishedOnce refuses a candidate whose tip the channel already holds: it was published
// there before, and a rollback since does not make its approvals count again.
func (p *publication) publishedOnce() error {
	r, ch := p.t.r, p.ch
	tip, err := r.git.Refs().Get(p.target)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		tip, err = r.tip, nil // a canary channel not made yet starts at the publish branch
	}
	if err != nil {
		return err
	}
	merged, err := r.git.History().IsAncestor(ch.Tip, tip)
	if err != nil || !merged {
		return err
	}
	return fmt.Errorf("%s: %w: %s already holds this candidate's tip: it was published before (and rolled back since, when %s no longer holds it); a candidate is published once, so propose that version again for new approvals: `skillgit propose %s --from-rev %s`",
		ch.ID, ErrRefused, gitstore.ShortRef(p.target), p.c.Skill, p.c.Skill, gitstore.ShortHash(ch.Tip.String()))
}

// ChannelRef maps a channel name, main (or empty) or canary, to its branch.
func (r *Repo) ChannelRef(channel string) (string, error) {
	switch channel {
	case "", "main", gitstore.ShortRef(r.branch):
		return r.branch, nil
	case "canary":
		return canaryRef, nil
	}
	return "", fmt.Errorf("channel %q is not one of main, canary", channel)
}

// channelTip returns the tip of the channel and the commit a publish there starts from. An
// absent canary branch starts at the publish tip; a canary branch that lacks publishes made
// on the publish branch since starts from a commit that merges them in, so canary stays the
// publish branch plus canary publishes.
func (p *publication) channelTip() (old, start gitstore.Hash, err error) {
	r := p.t.r
	h, err := r.git.Refs().Get(p.target)
	if p.target != canaryRef {
		return h, h, err
	}
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return gitstore.ZeroHash, r.tip, nil
	}
	if err != nil {
		return h, h, err
	}
	behind, err := r.git.History().IsAncestor(r.tip, h)
	if err != nil || behind {
		return h, h, err
	}
	start, err = p.catchUpCanary(h)
	return h, start, err
}

// catchUpCanary writes a commit that merges the publish branch into the canary tip.
func (p *publication) catchUpCanary(canary gitstore.Hash) (gitstore.Hash, error) {
	r := p.t.r
	c, err := r.git.Objects().Commit(canary)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	baseTree, err := skilltree.MergeBaseTree(r.git, canary, r.tip)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	tree, conflicts, err := r.git.Writes().MergeTrees(baseTree, c.TreeHash, r.tree)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if len(conflicts) > 0 {
		return gitstore.ZeroHash, fmt.Errorf("canary: %w: canary and %s both changed %s since they parted; publish or roll back those canary skills on %s first",
			ErrConflict, gitstore.ShortRef(r.branch), strings.Join(conflicts, ", "), gitstore.ShortRef(r.branch))
	}
	ts := trailerList{}.add(keyAction, actSync).add(keyChannel, "canary")
	msg := ts.message("sync: canary with "+gitstore.ShortRef(r.branch), "Brings the publishes made on "+gitstore.ShortRef(r.branch)+" to the canary channel.", p.o)
	return p.t.commit(tree, msg, nil, canary, r.tip)
}

// once computes and lands one publish on the current tip of the channel.
func (p *publication) once() (*Result, error) {
	old, start, err := p.channelTip()
	if err != nil {
		return nil, err
	}
	m, c, err := p.plan(start)
	if err != nil {
		return nil, err
	}
	res := &Result{Action: actPublish, ID: p.ch.ID, Skill: c.Skill, Change: c.Change, Channel: gitstore.ShortRef(p.target), PublishedAs: p.as}
	if err := p.checkMerge(m, c, res); err != nil {
		return nil, err
	}
	h, err := p.t.commit(m.tree, publishMessage(c, res, p.target, p.o), nil, start, p.ch.Tip)
	if err != nil {
		return nil, err
	}
	if err := p.t.move(p.target, old, h, m.startTree, m.tree, m.paths()); err != nil {
		return nil, err
	}
	// The next publish of a batch asks whether its candidate is on the channel already;
	// what this merge brought answers that without a walk over the batch. It is a memo: a
	// failure to record it only leaves the walk.
	_ = p.t.r.git.History().Grew(start, h)
	res.Commit, res.State = h.String(), StatePublished
	if p.target == canaryRef {
		res.State = StateCanary
	} else if err := p.t.moveCandidate(p.ch, gitstore.ZeroHash, actPublish); err != nil {
		res.addWarning(fmt.Sprintf("warning: %s: published, but its branch could not be removed: %v", p.ch.ID, err))
	}
	return res, nil
}

// plan plans the publish onto start, and the candidate as it is published: under the name as,
// a copy at the renamed folder.
func (p *publication) plan(start gitstore.Hash) (*merge, *Candidate, error) {
	pl := newPlanner(p.t.r)
	if p.as != "" {
		return pl.prepareAs(p.ch, p.c, start, p.target, p.as)
	}
	m, err := pl.prepare(p.ch, start, p.target)
	return m, p.c, err
}

// checkMerge audits what is about to be published and applies the policy to it; c is the
// candidate as published.
func (p *publication) checkMerge(m *merge, c *Candidate, res *Result) error {
	r, ch := p.t.r, p.ch
	pl := newPlanner(r)
	items := pl.items(m.changes, c, ch)
	if ch.IsPolicy() {
		moved, err := pl.checkPolicy(m, ch.ID)
		if err != nil {
			return err
		}
		items = append(items, moved...)
	}
	high, err := (actAudit{r: r, o: p.o}).into(items, res)
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
	if err := p.checkUnattended(c); err != nil {
		return err
	}
	if ok, why := ledger.ApprovedEnough(r.cfg, c, c.Writers); !ok {
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
