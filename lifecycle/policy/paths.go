package policy

import (
	"strings"

	"github.com/skillgit/skillgit/internal/filenames"
)

// Dir is the folder of policy files beside the configuration, where the allow list and the
// allowed-signers file are by default, and the audit rules (AuditRulesFile) always.
const Dir = filenames.PolicyDir

// PolicyPaths lists the paths that hold policy under c: the configuration, the folder of
// policy files and, when it lies elsewhere, the allow list.
func (c *Config) PolicyPaths() []string {
	out := []string{ConfigFile, Dir}
	if a := c.Audit.Allow; a != "" && a != Dir && !strings.HasPrefix(a, Dir+"/") && a != ConfigFile {
		out = append(out, a)
	}
	return out
}
