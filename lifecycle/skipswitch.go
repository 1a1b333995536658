package lifecycle

import (
	"fmt"
	"strings"
)

// SkipAuditEnv is the environment variable that turns the security audit off for local use.
const SkipAuditEnv = "SKILLGIT_SKIP_SECURITY_AUDIT"

// AuditSkipped reports whether automatic audits are switched off, by the configuration or by the
// environment override, and the warning that must be printed on stderr whenever that is so.
// Callers pass the configuration of the base (never of a change under review) and os.Getenv.
// `skillgit audit` never consults it: a user's diagnostic always runs.
func AuditSkipped(c *Config, getenv func(string) string) (bool, string) {
	if v := strings.TrimSpace(getenv(SkipAuditEnv)); v != "" && v != "0" && !strings.EqualFold(v, "false") {
		return true, fmt.Sprintf("warning: security audit skipped because %s=%s is set in the environment", SkipAuditEnv, v)
	}
	if c != nil && c.Audit.SkipSecurityAudit {
		return true, fmt.Sprintf("warning: security audit skipped because %s sets audit.skip_security_audit: true", ConfigFile)
	}
	return false, ""
}

// riskAtPublish is the risk the approval policy weighs when publishing: the verdict of the
// audit just run on what is published. With the skip switch on there is no such verdict, and
// the risk recorded when the candidate was proposed is stale: it neither blocks nor lets a
// policy approval stand in for a person. The risk is then "unknown", which needs the
// approvals by people that the configuration requires, as in manual mode.
func riskAtPublish(res *Result) string {
	if res.Audit == auditSkipped {
		return riskUnknown
	}
	return res.Risk
}

// auditSkipped and riskUnknown are the Skillgit-Audit and Skillgit-Risk values of an action
// that ran with the skip switch on.
const (
	auditSkipped = "skipped"
	riskUnknown  = "unknown"
)
