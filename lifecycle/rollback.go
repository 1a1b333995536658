package lifecycle

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Rollback restores the skill folders a publish changed to what they were before it, as one
// commit on the publish branch that says, as git does, "This reverts commit <sha>." Name the
// skill to undo its latest publish still in effect (one no rollback has undone yet, so
// repeated rollbacks walk back), or the publish commit; with both, the commit must be a
// publish of that skill, and only that skill's folder is restored. A rollback itself cannot
// be undone this way: bringing back what it removed is a publish, which needs a candidate and
// its approvals. An unattended caller may roll back only what the mode would publish without a
// person.
func (r *Repo) Rollback(name, commit string, o ActOptions) (*Result, error) {
	if name == "" && commit == "" {
		return nil, fmt.Errorf("name a skill or give --commit SHA")
	}
	sig, warn, err := r.Actor(o)
	if err != nil {
		return nil, err
	}
	t := &tx{r: r, sig: sig}
	res, err := t.retry(func() (*Result, error) { return r.rollbackOnce(t, name, commit, o) })
	if err != nil {
		return nil, err
	}
	res.addWarning(warn)
	t.warnDanglingProfiles(res)
	t.done(res)
	return res, nil
}

func (r *Repo) rollbackOnce(t *tx, name, commit string, o ActOptions) (*Result, error) {
	pub, undone, err := r.findPublish(name, commit)
	if err != nil {
		return nil, err
	}
	if err := r.checkPublishOf(pub, name, commit); err != nil {
		return nil, err
	}
	changes, err := r.undoChanges(pub, name)
	if err != nil {
		return nil, err
	}
	if changes, err = stillInEffect(changes, pub, undone); err != nil {
		return nil, err
	}
	tree := r.Tree
	res := &Result{Action: actRollback, Skill: name, ID: pub.Claims.Get(keyCandidate), Channel: short(r.Branch), Reverts: pub.Hash.String()}
	var items []auditrun.Item
	for _, f := range changes {
		if tree, err = r.restore(tree, f, pub); err != nil {
			return nil, err
		}
		if !f.base.IsZero() {
			items = append(items, auditrun.Item{Name: f.name(), Path: f.path, Tree: f.base, Base: f.head, BaseLabel: short(r.Branch)})
		}
		res.Skill = f.name()
	}
	if err := r.auditRollback(items, res, o); err != nil {
		return nil, err
	}
	if err := r.checkUnattendedRollback(changes, res, o); err != nil {
		return nil, err
	}
	m := &merge{changes: changes}
	h, err := t.onBranch(tree, rollbackMessage(pub, changes, res, o), m.paths())
	if err != nil {
		return nil, err
	}
	res.Commit = h.String()
	return res, nil
}

// findPublish finds the publish to undo: the given commit, or the newest publish of name on
// the publish branch's first-parent line that no rollback has undone. It also returns what
// the rollbacks newer than that publish undid.
func (r *Repo) findPublish(name, commit string) (ledger.Commit, ledger.UndoneSet, error) {
	var target gitstore.Hash
	if commit != "" {
		h, err := r.Git.ResolveRevision(commit)
		if err != nil && name != "" {
			return ledger.Commit{}, nil, notPublishOf(r, name, commit)
		}
		if err != nil {
			return ledger.Commit{}, nil, fmt.Errorf("--commit %s: %w", commit, err)
		}
		target = h
	}
	var found ledger.Commit
	undone := ledger.UndoneSet{}
	seen := publishesSeen{}
	tc := r.book().TrailCache()
	defer tc.Save()
	defer r.ledger().Save()
	err := r.Git.WalkFirstParent(r.Tip, func(h gitstore.Hash, c *object.Commit) error {
		if h == target {
			found = ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
			return gitstore.ErrStop
		}
		e := r.book().EntryOf(h, c, tc)
		if target.IsZero() && e.Action == actPublish && ledger.ContainsSkill(e, name) && undone.By(h, name) == "" {
			found = ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
			return gitstore.ErrStop
		}
		seen.see(h, e, name)
		undone.See(h, e, c.Message)
		return nil
	})
	if err != nil && !errors.Is(err, gitstore.ErrStop) {
		return ledger.Commit{}, nil, err
	}
	if found.C != nil {
		return found, undone, nil
	}
	if !target.IsZero() {
		return ledger.Commit{}, nil, fmt.Errorf("--commit %s: %w: not a commit of %s's first-parent line, so not a publish a rollback can undo; `skillgit log` lists the publishes",
			commit, ErrRefused, short(r.Branch))
	}
	return ledger.Commit{}, nil, r.noPublishToUndo(name, seen)
}

// publishesSeen is what a walk of the trail learns of the publishes of one skill: its
// publishes, newest first, and the names of every skill published, for suggestions.
type publishesSeen struct {
	of    []gitstore.Hash
	names []string
}

// see takes the next older entry of the trail, the commit h.
func (p *publishesSeen) see(h gitstore.Hash, e LogEntry, name string) {
	if e.Action != actPublish {
		return
	}
	if ledger.ContainsSkill(e, name) {
		p.of = append(p.of, h)
	}
	p.names = append(p.names, e.Skills...)
}

// latestVersion is the newest publish of skill name that leaves a version of it on the
// branch (not its deletion), or "" when there is none.
func (r *Repo) latestVersion(name string, seen publishesSeen) string {
	for _, h := range seen.of {
		if _, s, _, err := r.skillAt(h, name, h.String()); err == nil && s != nil {
			return shortID(h.String())
		}
	}
	return ""
}

// noPublishToUndo says why skill name has no publish to undo: every publish of it is rolled
// back already, it is on the branch without a publish, or no skill of that name was ever
// published.
func (r *Repo) noPublishToUndo(name string, seen publishesSeen) error {
	branch := short(r.Branch)
	if len(seen.of) > 0 {
		rev := r.latestVersion(name, seen)
		if rev == "" {
			rev = "REV"
		}
		return fmt.Errorf("%s: %w: every publish of this skill on %s is rolled back already; to bring a version back, propose it again as a candidate: `skillgit propose %s --from-rev %s` proposes the version its latest publish brought, and `skillgit log %s` lists the others",
			name, ErrNotFound, branch, name, rev, name)
	}
	if _, err := r.Published().Find(name); err == nil {
		return fmt.Errorf("%s: %w: no publish of this skill on %s, only commits made with git; a rollback undoes a publish, so to remove the skill propose its deletion (`skillgit propose --delete %s`), or propose the version you want; `skillgit log %s` shows its history",
			name, ErrNotFound, branch, name, name)
	}
	names := seen.names
	if pub, err := r.Published().List(); err == nil {
		for _, s := range pub.Skills {
			names = append(names, s.Name)
		}
	}
	return fmt.Errorf("%s: %w: no skill of this name was ever published on %s%s; `skillgit list` shows the published skills",
		name, ErrNotFound, branch, closeNamesHint(name, names, "published skills"))
}

// stillInEffect keeps the folders of pub that no later rollback undid, and refuses when none
// is left.
func stillInEffect(changes []folderChange, pub ledger.Commit, undone ledger.UndoneSet) ([]folderChange, error) {
	var out []folderChange
	var by string
	for _, f := range changes {
		if b := undone.By(pub.Hash, f.name()); b != "" {
			by = b
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w: %s is rolled back already, by %s; `skillgit rollback %s` undoes the latest publish still in effect",
			changes[0].name(), ErrRefused, shortID(pub.Hash.String()), shortID(by), changes[0].name())
	}
	return out, nil
}

// undoChanges lists the folders pub changed (only name's when given), each of which must
// still be as pub left it.
func (r *Repo) undoChanges(pub ledger.Commit, name string) ([]folderChange, error) {
	if len(pub.C.ParentHashes) == 0 {
		return nil, fmt.Errorf("%s: the first commit cannot be rolled back", pub.Hash)
	}
	parent, err := r.Git.Commit(pub.C.ParentHashes[0])
	if err != nil {
		return nil, err
	}
	all, _, err := treesOf(r).changes(parent.TreeHash, pub.C.TreeHash)
	if err != nil {
		return nil, err
	}
	var out []folderChange
	for _, f := range all {
		if name == "" || f.name() == name {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: changes no skill folder%s; nothing to roll back (a policy change is undone by proposing the earlier policy with `skillgit propose --config`)", pub.Hash, forName(name))
	}
	return out, nil
}

// checkPublishOf refuses to undo a rollback, and requires a commit given together with a
// skill's name to be a publish of it.
func (r *Repo) checkPublishOf(pub ledger.Commit, name, commit string) error {
	if commit == "" {
		return nil
	}
	e := r.book().EntryOf(pub.Hash, pub.C, r.book().TrailCache())
	if e.Action == actRollback {
		skill := name
		if skill == "" && len(e.Skills) > 0 {
			skill = e.Skills[0]
		}
		if skill == "" {
			skill = "NAME"
		}
		return fmt.Errorf("%s: %w: commit %s is a rollback; undoing it would publish the version it removed without review. Propose that version again as a candidate (`skillgit propose %s --from-rev %s`, the commit before the rollback) and have it approved; `skillgit log %s` shows the history",
			skill, ErrRefused, commit, skill, beforeRollback(pub), skill)
	}
	if name != "" && (e.Action != actPublish || !ledger.ContainsSkill(e, name)) {
		return notPublishOf(r, name, commit)
	}
	if e.Action != actPublish {
		why := "it is " + describeEntry(e)
		if e.Unverified != "" {
			why = "it " + e.Unverified
		}
		return fmt.Errorf("--commit %s: %w: not a publish: %s; a rollback undoes a publish (`skillgit log` lists them)", commit, ErrRefused, why)
	}
	return nil
}

// describeEntry says what a trail entry is, for messages.
func describeEntry(e LogEntry) string {
	if e.Via != "" {
		return "a commit made with " + e.Via
	}
	return "a " + e.Action + " commit"
}

// beforeRollback names the commit before rollback rb, which holds the version it removed.
func beforeRollback(rb ledger.Commit) string {
	if len(rb.C.ParentHashes) == 0 {
		return "REV"
	}
	return shortID(rb.C.ParentHashes[0].String())
}

func notPublishOf(r *Repo, name, commit string) error {
	return fmt.Errorf("%s: commit %s is not a publish of this skill on %s; `skillgit log %s` lists its publishes", name, commit, short(r.Branch), name)
}

func forName(name string) string {
	if name == "" {
		return ""
	}
	return " of " + name
}

// restore puts f's folder back as it was before pub, refusing when the branch changed it since.
func (r *Repo) restore(tree gitstore.Hash, f folderChange, pub ledger.Commit) (gitstore.Hash, error) {
	cur, err := r.FolderAt(tree, f.path)
	if err != nil {
		return tree, err
	}
	if cur != f.head {
		return tree, r.changedSince(f, pub)
	}
	return r.Git.ReplacePath(tree, f.path, dirEntry(f.base))
}

// changedSince says that the branch changed f's folder after publish pub, and what to do:
// roll back the later publish first, or, when a commit made with git changed it, propose the
// version wanted, since only publishes are rolled back.
func (r *Repo) changedSince(f folderChange, pub ledger.Commit) error {
	err := fmt.Errorf("%s: %w: %s changed %s after %s; roll back the later change first (`skillgit log %s`)",
		f.name(), ErrConflict, short(r.Branch), f.path, shortID(pub.Hash.String()), f.name())
	last, lerr := r.book().LastChanges(r.Tip, []string{f.name()})
	lc, ok := last[f.name()]
	if lerr != nil || !ok || lc.Action == actPublish || lc.Action == actRollback {
		return err
	}
	return fmt.Errorf("%s: %w: %s changed %s after %s with commit %s, which is not a publish, so no rollback undoes it; propose the version you want (`skillgit propose %s --from-rev REV`; `skillgit log %s` lists the versions)",
		f.name(), ErrConflict, short(r.Branch), f.path, shortID(pub.Hash.String()), shortID(lc.Commit), f.name(), f.name())
}

func (r *Repo) auditRollback(items []auditrun.Item, res *Result, o ActOptions) error {
	high, err := r.auditInto(items, res, o)
	if err != nil {
		return err
	}
	if high {
		return fmt.Errorf("%s: %w: the version a rollback would restore is rated high risk by the audit; propose a fixed version instead", res.Skill, ErrRefused)
	}
	return nil
}

// rollbackMessage names every skill the rollback restores, so the trail knows which shares of
// the publish are undone.
func rollbackMessage(pub ledger.Commit, changes []folderChange, res *Result, o ActOptions) string {
	subject, _, _ := ledger.CutSubject(pub.C.Message)
	body := fmt.Sprintf("Rolls back %q.\n\nThis reverts commit %s.", strings.TrimSpace(subject), pub.Hash)
	ts := trailerList{}.add(keyAction, actRollback)
	for _, f := range changes {
		ts = ts.add(keySkill, f.name())
	}
	ts = ts.add(keyCandidate, res.ID).add(keyReverts, pub.Hash.String()).add(keyRisk, res.Risk).add(keyAudit, res.Audit)
	return ts.message("rollback: "+res.Skill, body, o)
}
