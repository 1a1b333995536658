package policy

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
