package policy

import "github.com/skillgit/skillgit/audit"

// AuditRulesFile is where a repository keeps its own audit rules. It lies in Dir, so it is
// policy: proposed with propose --config, approved by people and read from the version a
// change is compared with, never from the change.
const AuditRulesFile = Dir + "/audit-rules.yaml"

// AuditPolicy is what a repository's configuration says about audits: the accepted findings,
// the trusted installers and the risk that blocks.
type AuditPolicy struct {
	// Allow lists accepted findings; nil when the repository has no allow list.
	Allow *audit.AllowList
	// Installers are installer addresses the configuration trusts.
	Installers []string
	// Custom are the repository's own rules (AuditRulesFile); nil when it has none.
	Custom *audit.CustomRules
	// FailOn is the risk at which a change is refused.
	FailOn audit.Risk
	// From names the version the policy was read from, such as "main"; empty for the defaults.
	From string
}

// DefaultAuditPolicy is the policy of a folder outside any skillgit repository: nothing
// accepted, nothing trusted, high risk blocks.
func DefaultAuditPolicy() *AuditPolicy { return &AuditPolicy{FailOn: audit.RiskHigh} }

// Hash identifies the parts of the policy that change a scan's result, the repository's own
// rules among them.
func (p *AuditPolicy) Hash() string { return audit.PolicyHashWith(p.Allow, p.Installers, p.Custom) }
