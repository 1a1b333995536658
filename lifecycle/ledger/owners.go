package ledger

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// outOfScopeWhy says why an unattended actor may not change the skill name on its own, or ""
// when the skill is in the agents' scope. A new skill is judged by its name and by whether an
// unattended actor proposed it (managed); a published one by its name, its published metadata
// and the publish that created it, never by what a candidate claims. Pack skills are never
// in the scope.
func (b *Book) OutOfScopeWhy(name string, change Change, managed, fromPack bool) string {
	why := fmt.Sprintf("%s is not in the agents' scope (%s); a person must approve and publish it", name, b.Config.ScopeText())
	if fromPack || b.PackOwners()[name] != "" {
		return fmt.Sprintf("%s is a skill pack's skill, which is never in the agents' scope; a person must approve and publish it", name)
	}
	if b.Config.NameInScope(name) {
		return ""
	}
	if change == ChangeCreate {
		if managed {
			return ""
		}
		return why
	}
	if b.PublishedManaged(name) {
		return ""
	}
	return why
}

// publishedManaged says whether the published skill name carries metadata.managed-by:
// skillgit, or was created by a publish that carries the Skillgit-Managed-By trailer.
func (b *Book) PublishedManaged(name string) bool {
	if s, err := b.Find(name); err == nil && s.Metadata["managed-by"] == policy.ManagedBy {
		return true
	}
	return b.CreatedManaged(name)
}

// createdManaged walks the publish branch back to the newest publish that created name and
// says whether it carries the Skillgit-Managed-By trailer.
func (b *Book) CreatedManaged(name string) bool {
	managed := false
	err := b.Git.WalkFirstParent(b.Tip, func(h gitstore.Hash, c *object.Commit) error {
		ts := Commit{Claims: ParseClaims(c.Message)}
		if ts.Claims.Get(KeyAction) != ActPublish || ts.Claims.Get(KeySkill) != name || Change(ts.Claims.Get(KeyChange)) != ChangeCreate {
			return nil
		}
		// Only a publish the ledger verified creates the skill; its claims are then the
		// candidate's own.
		st, err := b.ledger().StepOf(h, c)
		if err != nil || st.Kind != KindPublish {
			return err
		}
		ch, err := b.ledger().ChainOf(st)
		if err != nil || ch == nil {
			return err
		}
		managed = ch.Propose().Claims.Get(KeyManagedBy) == policy.ManagedBy
		return gitstore.ErrStop
	})
	if err != nil && !errors.Is(err, gitstore.ErrStop) {
		return false
	}
	return managed
}

// treeManaged says whether the skill folder tree holds a SKILL.md whose metadata.managed-by
// is skillgit.
func (b *Book) TreeManaged(tree gitstore.Hash) bool {
	if tree.IsZero() {
		return false
	}
	data, ok, err := b.Git.FileAt(tree, catalog.FileName, catalog.MaxSkillFileSize, gitstore.ShortRef(b.Branch))
	if err != nil || !ok {
		return false
	}
	s, _ := catalog.Parse("", data, catalog.Lenient)
	return s != nil && s.Metadata["managed-by"] == policy.ManagedBy
}

// RollbackOutOfScopeWhy says why an unattended actor may not roll back the folder of skill
// name from version head to base, or "" when the skill is in the agents' scope: judged by
// name, and by the published version (or, for a skill the publish deleted, the version it
// would bring back).
func (b *Book) RollbackOutOfScopeWhy(name string, head, base gitstore.Hash) string {
	if b.PackOwners()[name] != "" {
		return fmt.Sprintf("%s is a skill pack's skill, which is never in the agents' scope", name)
	}
	if b.Config.NameInScope(name) {
		return ""
	}
	judged := head
	if judged.IsZero() {
		judged = base
	}
	if b.TreeManaged(judged) || b.CreatedManaged(name) {
		return ""
	}
	return fmt.Sprintf("%s is not in the agents' scope (%s)", name, b.Config.ScopeText())
}
