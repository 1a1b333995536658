package auditrun

import (
	"path/filepath"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Runner runs the audit in one skillgit repository, as it was opened at its publish branch's
// tip. What the audit needs of the repository's history it is given as functions.
type Runner struct {
	// Git is the repository.
	Git *gitstore.Repo
	// Config is the configuration of the publish branch.
	Config *policy.Config
	// Branch is the full name of the publish branch, such as refs/heads/main; Tip is its
	// commit and Tree Tip's root tree.
	Branch    string
	Tip, Tree gitstore.Hash
	// FirstPush marks a pre-receive check of the push that creates the publish branch: that
	// push brings all of the branch, since nothing is there before it.
	FirstPush bool
	// Skills lists every skill folder of the root tree tree, which rev names; the audit of a
	// commit calls it when the commit's whole result is not cached.
	Skills func(rev string, tree gitstore.Hash) ([]Item, error)
	// Accepts returns, by skill folder, the findings approvals accepted for what a push from
	// base to head brings; nil accepts none.
	Accepts func(base, head gitstore.Hash) (map[string]Accepted, error)
}

// Cache returns the audit result cache of the repository; it lives in the git directory and
// is safe to delete.
func (r *Runner) Cache() *audit.Cache {
	return &audit.Cache{Dir: filepath.Join(r.Git.CommonDir(), "skillgit", "cache", "audit")}
}

// Auditor returns an auditor of the repository's trees under policy p, with its cache.
func (r *Runner) Auditor(p *policy.AuditPolicy) *Auditor {
	return &Auditor{Git: r.Git, Policy: p, Cache: r.Cache()}
}
