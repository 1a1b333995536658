package policy

import "github.com/skillgit/skillgit/audit"

// AuditPolicy is what a repository's configuration says about audits: the accepted findings,
// the trusted installers and the risk that blocks.
type AuditPolicy struct {
	// Allow lists accepted findings; nil when the repository has no allow list.
	Allow *audit.AllowList
	// Installers are installer addresses the configuration trusts.
	Installers []string
	// FailOn is the risk at which a change is refused.
	FailOn audit.Risk
	// From names the version the policy was read from, such as "main"; empty for the defaults.
	From string
}

// DefaultAuditPolicy is the policy of a folder outside any skillgit repository: nothing
// accepted, nothing trusted, high risk blocks.
func DefaultAuditPolicy() *AuditPolicy { return &AuditPolicy{FailOn: audit.RiskHigh} }

// Hash identifies the parts of the policy that change a scan's result.
func (p *AuditPolicy) Hash() string { return audit.PolicyHash(p.Allow, p.Installers) }
