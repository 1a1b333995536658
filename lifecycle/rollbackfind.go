package lifecycle

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// find finds the publish to undo: the given commit, or the newest publish of name on
// the publish branch's first-parent line that no rollback has undone. It also returns what
// the rollbacks newer than that publish undid.
func (rb *rollback) find() (ledger.Commit, ledger.UndoneSet, error) {
	name, commit := rb.name, rb.commit
	r := rb.t.r
	target, err := rb.commitTarget()
	if err != nil {
		return ledger.Commit{}, nil, err
	}
	var found ledger.Commit
	undone := ledger.UndoneSet{}
	seen := publishesSeen{}
	tc := r.book().Trail().TrailCache()
	defer tc.Save()
	defer r.ledger().Save()
	err = r.git.History().WalkFirstParent(r.tip, func(h gitstore.Hash, c *object.Commit) error {
		if h == target {
			found = ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
			return gitstore.ErrStop
		}
		e, err := r.book().Trail().EntryOf(h, c, tc)
		if err != nil {
			return err
		}
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
			commit, ErrRefused, gitstore.ShortRef(r.branch))
	}
	return ledger.Commit{}, nil, rb.noPublishToUndo(seen)
}

// commitTarget resolves the commit to undo, zero when none is given.
func (rb *rollback) commitTarget() (gitstore.Hash, error) {
	if rb.commit == "" {
		return gitstore.ZeroHash, nil
	}
	h, err := rb.t.r.git.Refs().ResolveRevision(rb.commit)
	if err != nil && rb.name != "" {
		return gitstore.ZeroHash, notPublishOf(rb.t.r, rb.name, rb.commit)
	}
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("--commit %s: %w", rb.commit, err)
	}
	return h, nil
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
func (rb *rollback) latestVersion(seen publishesSeen) string {
	name := rb.name
	r := rb.t.r
	for _, h := range seen.of {
		if _, s, _, err := treesOf(r).SkillAt(h, name, h.String()); err == nil && s != nil {
			return gitstore.ShortHash(h.String())
		}
	}
	return ""
}

// noPublishToUndo says why skill name has no publish to undo: every publish of it is rolled
// back already, it is on the branch without a publish, or no skill of that name was ever
// published.
func (rb *rollback) noPublishToUndo(seen publishesSeen) error {
	name := rb.name
	r := rb.t.r
	branch := gitstore.ShortRef(r.branch)
	if len(seen.of) > 0 {
		rev := rb.latestVersion(seen)
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
		name, ErrNotFound, branch, catalog.CloseNamesHint(name, names, "published skills"))
}

// stillInEffect keeps the folders of pub that no later rollback undid, and refuses when none
// is left.
func stillInEffect(changes []skilltree.Change, pub ledger.Commit, undone ledger.UndoneSet) ([]skilltree.Change, error) {
	var out []skilltree.Change
	var by string
	for _, f := range changes {
		if b := undone.By(pub.Hash, f.Name()); b != "" {
			by = b
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w: %s is rolled back already, by %s; `skillgit rollback %s` undoes the latest publish still in effect",
			changes[0].Name(), ErrRefused, gitstore.ShortHash(pub.Hash.String()), gitstore.ShortHash(by), changes[0].Name())
	}
	return out, nil
}

// undoChanges lists the folders pub changed (only name's when given), each of which must
// still be as pub left it.
func (rb *rollback) undoChanges(pub ledger.Commit) ([]skilltree.Change, error) {
	name := rb.name
	r := rb.t.r
	if len(pub.C.ParentHashes) == 0 {
		return nil, fmt.Errorf("%s: the first commit cannot be rolled back", pub.Hash)
	}
	parent, err := r.git.Objects().Commit(pub.C.ParentHashes[0])
	if err != nil {
		return nil, err
	}
	all, _, err := treesOf(r).Changes(parent.TreeHash, pub.C.TreeHash)
	if err != nil {
		return nil, err
	}
	var out []skilltree.Change
	for _, f := range all {
		if name == "" || f.Name() == name {
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
func (rb *rollback) checkPublishOf(pub ledger.Commit) error {
	name, commit := rb.name, rb.commit
	r := rb.t.r
	if commit == "" {
		return nil
	}
	e, err := r.book().Trail().EntryOf(pub.Hash, pub.C, r.book().Trail().TrailCache())
	if err != nil {
		return err
	}
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
	return gitstore.ShortHash(rb.C.ParentHashes[0].String())
}

func notPublishOf(r *Repo, name, commit string) error {
	return fmt.Errorf("%s: commit %s is not a publish of this skill on %s; `skillgit log %s` lists its publishes", name, commit, gitstore.ShortRef(r.branch), name)
}

func forName(name string) string {
	if name == "" {
		return ""
	}
	return " of " + name
}
