package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// ManagedBy is the value of a skill's metadata.managed-by, and of the Skillgit-Managed-By
// trailer, that puts the skill in the agents' scope.
const ManagedBy = "skillgit"

// DefaultAgentScope is the agents' scope when agent_scope does not say: the learned skills.
var DefaultAgentScope = []string{"learned-*"}

// maxScopeGlobs bounds how many globs agent_scope may hold.
const maxScopeGlobs = 64

// scopeGlobPattern is what an agent_scope glob may hold: the characters of a skill name and
// the path.Match operators, no slash and no escape.
var scopeGlobPattern = lazyregexp.New(`^[a-z0-9*?\[\]^!-]{1,64}$`)

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
		if !scopeGlobPattern().MatchString(g) {
			return fmt.Errorf("agent_scope[%d] %q is not a skill name glob: use lowercase letters, digits, '-' and the glob characters * ? [ ]", i, g)
		}
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("agent_scope[%d] %q is not a valid glob: %v", i, g, err)
		}
	}
	return nil
}

// ScopeText describes the agents' scope for messages.
func (c Config) ScopeText() string {
	return fmt.Sprintf("agent_scope: %s, or metadata.managed-by: %s", strings.Join(c.AgentScopeGlobs(), " "), ManagedBy)
}

// NameInScope says whether a skill name matches a glob of the agents' scope.
func (c Config) NameInScope(name string) bool {
	for _, g := range c.AgentScopeGlobs() {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
