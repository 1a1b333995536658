package lifecycle

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// ManagedBy is the value of a skill's metadata.managed-by, and of the Skillgit-Managed-By
// trailer, that puts the skill in the agents' scope.
const ManagedBy = "skillgit"

// keyManagedBy marks the propose and publish commits of a skill an unattended actor created.
const keyManagedBy = "Skillgit-Managed-By"

// DefaultAgentScope is the agents' scope when agent_scope does not say: the learned skills.
var DefaultAgentScope = []string{"learned-*"}

// maxScopeGlobs bounds how many globs agent_scope may hold.
const maxScopeGlobs = 64

// scopeGlobPattern is what an agent_scope glob may hold: the characters of a skill name and
// the path.Match operators, no slash and no escape.
var scopeGlobPattern = regexp.MustCompile(`^[a-z0-9*?\[\]^!-]{1,64}$`)

// AgentScopeGlobs returns the name globs of the agents' scope.
func (c Config) AgentScopeGlobs() []string {
	if len(c.AgentScope) == 0 {
		return DefaultAgentScope
	}
	return c.AgentScope
}

// validateAgentScope checks agent_scope: a few well-formed globs over skill names.
func validateAgentScope(globs []string) error {
	if len(globs) > maxScopeGlobs {
		return fmt.Errorf("agent_scope has %d globs; at most %d are allowed", len(globs), maxScopeGlobs)
	}
	for i, g := range globs {
		if !scopeGlobPattern.MatchString(g) {
			return fmt.Errorf("agent_scope[%d] %q is not a skill name glob: use lowercase letters, digits, '-' and the glob characters * ? [ ]", i, g)
		}
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("agent_scope[%d] %q is not a valid glob: %v", i, g, err)
		}
	}
	return nil
}

// scopeText describes the agents' scope for messages.
func (c Config) scopeText() string {
	return fmt.Sprintf("agent_scope: %s, or metadata.managed-by: %s", strings.Join(c.AgentScopeGlobs(), " "), ManagedBy)
}

// nameInScope says whether a skill name matches a glob of the agents' scope.
func (c Config) nameInScope(name string) bool {
	for _, g := range c.AgentScopeGlobs() {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// outOfScopeWhy says why an unattended actor may not change the skill name on its own, or ""
// when the skill is in the agents' scope. A new skill is judged by its name and by whether an
// unattended actor proposed it (managed); a published one by its name, its published metadata
// and the publish that created it, never by what a candidate claims. Pack skills are never
// in the scope.
func (r *Repo) outOfScopeWhy(name string, change Change, managed, fromPack bool) string {
	why := fmt.Sprintf("%s is not in the agents' scope (%s); a person must approve and publish it", name, r.Config.scopeText())
	if fromPack || r.lockOwners()[name] != "" {
		return fmt.Sprintf("%s is a skill pack's skill, which is never in the agents' scope; a person must approve and publish it", name)
	}
	if r.Config.nameInScope(name) {
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
	if s, err := r.Find(name); err == nil && s.Metadata["managed-by"] == ManagedBy {
		return true
	}
	return r.createdManaged(name)
}

// createdManaged walks the publish branch back to the newest publish that created name and
// says whether it carries the Skillgit-Managed-By trailer.
func (r *Repo) createdManaged(name string) bool {
	managed := false
	err := r.Git.WalkFirstParent(r.Tip, func(_ gitstore.Hash, c *object.Commit) error {
		ts := commitInfo{trailers: gitstore.ParseTrailers(c.Message)}
		if ts.get(keyAction) != actPublish || ts.get(keySkill) != name || Change(ts.get(keyChange)) != ChangeCreate {
			return nil
		}
		managed = ts.get(keyManagedBy) == ManagedBy
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
	return s != nil && s.Metadata["managed-by"] == ManagedBy
}

// rollbackOutOfScopeWhy says why an unattended actor may not roll back the folder change f,
// or "" when its skill is in the agents' scope: judged by name, and by the published version
// (or, for a skill the publish deleted, the version it would bring back).
func (r *Repo) rollbackOutOfScopeWhy(f folderChange) string {
	name := f.name()
	if r.lockOwners()[name] != "" {
		return fmt.Sprintf("%s is a skill pack's skill, which is never in the agents' scope", name)
	}
	if r.Config.nameInScope(name) {
		return ""
	}
	judged := f.head
	if judged.IsZero() {
		judged = f.base
	}
	if r.treeManaged(judged) || r.createdManaged(name) {
		return ""
	}
	return fmt.Sprintf("%s is not in the agents' scope (%s)", name, r.Config.scopeText())
}
