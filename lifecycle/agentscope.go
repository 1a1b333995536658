package lifecycle

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// keyManagedBy marks the propose and publish commits of a skill an unattended actor created.
const keyManagedBy = ledger.KeyManagedBy

// outOfScopeWhy says why an unattended actor may not change the skill name on its own, or ""
// when the skill is in the agents' scope. A new skill is judged by its name and by whether an
// unattended actor proposed it (managed); a published one by its name, its published metadata
// and the publish that created it, never by what a candidate claims. Pack skills are never
// in the scope.
func (r *Repo) outOfScopeWhy(name string, change Change, managed, fromPack bool) string {
	why := fmt.Sprintf("%s is not in the agents' scope (%s); a person must approve and publish it", name, r.Config.ScopeText())
	if fromPack || r.Published().PackOwners()[name] != "" {
		return fmt.Sprintf("%s is a skill pack's skill, which is never in the agents' scope; a person must approve and publish it", name)
	}
	if r.Config.NameInScope(name) {
		return ""
	}
	if change == ChangeCreate {
		if managed {
			return ""
		}
		return why
	}
	if r.publishedManaged(name) {
		return ""
	}
	return why
}

// publishedManaged says whether the published skill name carries metadata.managed-by:
// skillgit, or was created by a publish that carries the Skillgit-Managed-By trailer.
func (r *Repo) publishedManaged(name string) bool {
	if s, err := r.Published().Find(name); err == nil && s.Metadata["managed-by"] == policy.ManagedBy {
		return true
	}
	return r.createdManaged(name)
}

// createdManaged walks the publish branch back to the newest publish that created name and
// says whether it carries the Skillgit-Managed-By trailer.
func (r *Repo) createdManaged(name string) bool {
	managed := false
	err := r.Git.WalkFirstParent(r.Tip, func(h gitstore.Hash, c *object.Commit) error {
		ts := ledger.Commit{Claims: ledger.ParseClaims(c.Message)}
		if ts.Claims.Get(keyAction) != actPublish || ts.Claims.Get(keySkill) != name || Change(ts.Claims.Get(keyChange)) != ChangeCreate {
			return nil
		}
		// Only a publish the ledger verified creates the skill; its claims are then the
		// candidate's own.
		st, err := r.ledger().StepOf(h, c)
		if err != nil || st.Kind != ledger.KindPublish {
			return err
		}
		ch, err := r.ledger().ChainOf(st)
		if err != nil || ch == nil {
			return err
		}
		managed = ch.Propose().Claims.Get(ledger.KeyManagedBy) == policy.ManagedBy
		return gitstore.ErrStop
	})
	if err != nil && !errors.Is(err, gitstore.ErrStop) {
		return false
	}
	return managed
}

// treeManaged says whether the skill folder tree holds a SKILL.md whose metadata.managed-by
// is skillgit.
func (r *Repo) treeManaged(tree gitstore.Hash) bool {
	if tree.IsZero() {
		return false
	}
	data, ok, err := r.FileAt(tree, catalog.FileName, catalog.MaxSkillFileSize, short(r.Branch))
	if err != nil || !ok {
		return false
	}
	s, _ := catalog.Parse("", data, catalog.Lenient)
	return s != nil && s.Metadata["managed-by"] == policy.ManagedBy
}

// rollbackOutOfScopeWhy says why an unattended actor may not roll back the folder change f,
// or "" when its skill is in the agents' scope: judged by name, and by the published version
// (or, for a skill the publish deleted, the version it would bring back).
func (r *Repo) rollbackOutOfScopeWhy(f folderChange) string {
	name := f.name()
	if r.Published().PackOwners()[name] != "" {
		return fmt.Sprintf("%s is a skill pack's skill, which is never in the agents' scope", name)
	}
	if r.Config.NameInScope(name) {
		return ""
	}
	judged := f.head
	if judged.IsZero() {
		judged = f.base
	}
	if r.treeManaged(judged) || r.createdManaged(name) {
		return ""
	}
	return fmt.Sprintf("%s is not in the agents' scope (%s)", name, r.Config.ScopeText())
}
