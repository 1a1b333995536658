package auditrun

import (
	"slices"

	"github.com/skillgit/skillgit/audit"
)

// ruleNotAudited is the audit rule for content the audit could not read.
const ruleNotAudited = "SG-TREE-008"

// notAudited reports whether the audit left part of a skill unread.
func notAudited(rep *audit.Report) bool {
	return slices.ContainsFunc(rep.Findings, func(f audit.Finding) bool { return f.RuleID == ruleNotAudited })
}
