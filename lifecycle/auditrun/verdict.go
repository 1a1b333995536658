package auditrun

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/audit"
)

// Verdict is what the audit trailers of a commit say: Skillgit-Risk and Skillgit-Audit.
type Verdict struct{ Risk, Audit string }

// SkippedVerdict is the verdict of an audit the skip switch turned off.
var SkippedVerdict = Verdict{Risk: "unknown", Audit: "skipped"}

// VerdictOf is the verdict of an audit that ran over reports and reached a verdict under
// failOn, with findings findings in all.
func VerdictOf(reports []audit.SkillReport, failOn audit.Risk, findings int) Verdict {
	return Verdict{Risk: audit.Overall(reports).String(),
		Audit: VerdictSummary(audit.Judge(reports, failOn), findings)}
}

// VerdictSummary is the value of a Skillgit-Audit trailer for an audit that ran and reached
// verdict v under the policy: "pass", "needs review" or "blocked", then the ruleset and the
// number of findings, so a blocked change never reads as passed.
func VerdictSummary(v audit.Verdict, findings int) string {
	return fmt.Sprintf("%s (ruleset %d, %d findings)", strings.ToLower(v.String()), audit.RulesetVersion, findings)
}
