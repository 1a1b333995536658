package lifecycle

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
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
		err = r.checkScope(ch, "publish")
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
		m, err = r.prepareMerge(ch, start, target)
	} else {
		m, c, err = r.prepareRenamed(ch, c, start, target, as)
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

// merge is a computed publish: the candidate's scope, the folders it changes and the
// resulting tree.
type merge struct {
	scope   *Scope
	changes []folderChange // base = the channel's folder, head = the candidate's
	// conflicts are folders the channel changed too since the merge base; base = the
	// channel's folder, head = the candidate's.
	conflicts []folderChange
	startTree gitstore.Hash
	tree      gitstore.Hash
	// renamedPath is where a publish under another name (--as) puts the candidate's folder.
	renamedPath string
}

func (m *merge) paths() []string {
	out := make([]string, len(m.changes))
	for i, f := range m.changes {
		out[i] = f.path
	}
	return out
}

// planMerge computes what publishing the candidate onto start would merge, without judging
// it: each folder of its scope that it changed since the merge base is taken from the
// candidate, unless start changed it too (a conflict). Review shows this plan; publish lands
// it.
func (r *Repo) planMerge(ch *ledger.Chain, start gitstore.Hash) (*merge, error) {
	sc, err := r.Git.Commit(start)
	if err != nil {
		return nil, err
	}
	scope, err := r.scopeOf(ch, start, sc.TreeHash)
	if err != nil {
		return nil, err
	}
	m := &merge{scope: scope, startTree: sc.TreeHash, tree: sc.TreeHash}
	for _, f := range scope.folders {
		if err := r.mergeFolder(m, f); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// prepareMerge plans the publish of the candidate onto start and refuses a candidate that
// changes anything outside its scope, conflicts with target, or changes nothing.
func (r *Repo) prepareMerge(ch *ledger.Chain, start gitstore.Hash, target string) (*merge, error) {
	m, err := r.planMerge(ch, start)
	if err != nil {
		return nil, err
	}
	if err := m.scope.refuse(ch.ID, "publish"); err != nil {
		return nil, err
	}
	if len(m.conflicts) > 0 {
		f := m.conflicts[0]
		return nil, fmt.Errorf("%s: %w: %s changed %s since candidate %s was made; run `skillgit rebase %s` to bring the candidate up to date, or revise it",
			f.name(), ErrConflict, short(target), f.path, ch.ID, ch.ID)
	}
	if len(m.changes) == 0 {
		return nil, fmt.Errorf("%s: nothing to publish: %s already holds the candidate's skill folders as they are", ch.ID, short(target))
	}
	if err := r.publishClash(m, target); err != nil {
		return nil, err
	}
	return m, nil
}

// mergeFolder takes folder f from the candidate into m, or records a conflict when the
// channel changed it too: since the merge base, or since the candidate's recorded base.
func (r *Repo) mergeFolder(m *merge, f folderChange) error {
	cur, err := r.pathHash(m.startTree, f)
	switch {
	case err != nil:
		return err
	case cur == f.head:
		return nil
	}
	stale := cur != f.base
	if !stale && !m.scope.anchor.IsZero() {
		was, err := r.pathHash(m.scope.anchor, f)
		if err != nil {
			return err
		}
		stale = cur != was
	}
	if stale {
		m.conflicts = append(m.conflicts, folderChange{path: f.path, base: cur, head: f.head, mode: f.mode})
		return nil
	}
	if m.tree, err = r.Git.ReplacePath(m.tree, f.path, f.entry()); err != nil {
		return err
	}
	m.changes = append(m.changes, folderChange{path: f.path, base: cur, head: f.head, mode: f.mode})
	return nil
}

// candidateBaseTree is the tree of base, the commit the candidate was built on or last
// rebased onto, while start descends from it; checking that costs only the commits made
// since, where a full merge-base search may have to paint much of the history. When start
// does not descend from it (the history was rewritten), it is the tree of git's merge base.
func (r *Repo) candidateBaseTree(ch *ledger.Chain, base, start, startTree gitstore.Hash) (gitstore.Hash, error) {
	if base == start {
		return startTree, nil
	}
	if ok, err := r.Git.IsAncestor(base, start); err != nil {
		return gitstore.ZeroHash, err
	} else if !ok {
		return mergeBaseTree(r.Git, start, ch.Tip)
	}
	c, err := r.Git.Commit(base)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// checkPublish audits what is about to be published and applies the policy to it.
func (r *Repo) checkPublish(m *merge, c *Candidate, ch *ledger.Chain, res *Result, target string, o ActOptions) error {
	items := r.mergeItems(m.changes, c, ch)
	if ch.IsPolicy() {
		moved, err := r.checkPolicyMerge(m, ch.ID)
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

// mergeItems are the audit items of the folders a merge takes from a candidate: each folder
// as the candidate has it, compared with the channel's, with the acceptances of the
// candidate's approvals on its own folder.
func (r *Repo) mergeItems(folders []folderChange, c *Candidate, ch *ledger.Chain) []auditrun.Item {
	var items []auditrun.Item
	for _, f := range folders {
		if !f.head.IsZero() && treesOf(r).isSkillPath(f.path) {
			it := auditrun.Item{Name: f.name(), Path: f.path, Tree: f.head, Base: f.base, BaseLabel: short(r.Branch)}
			if f.path == c.Path {
				it.Accepted = acceptedAllows(c, c.Writers, r.Config.Approvals.Signed)
				if c.Skill != "" && c.Skill != it.Name {
					it.FindingsAs = c.Skill // published under another name (--as)
				}
			}
			items = append(items, it)
		}
	}
	return items
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
