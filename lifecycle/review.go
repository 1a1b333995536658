package lifecycle

import (
	"slices"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policydiff"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// Review is what a reviewer needs to decide on a candidate.
type Review struct {
	Candidate *Candidate
	// Scope is what the candidate declares and what its branch changes; its Outside paths
	// block the candidate.
	Scope *Scope
	// Files lists the files that publishing the candidate now would change, and those of
	// folders in conflict with the publish branch.
	Files []FileChange
	// Diff is the unified diff of those files against the publish branch.
	Diff string
	// Policy says, for a policy candidate, what publishing it would change in the policy: one
	// line per configuration key and one per other policy file.
	Policy []string
	// Conflicts lists the skill folders the publish branch changed too since the candidate
	// was made; publish refuses them until the candidate is rebased or revised.
	Conflicts []string
	// Reports holds the audit of the folders shown, compared with the published ones.
	Reports []audit.SkillReport
	Risk    audit.Risk
	Verdict audit.Verdict
	FailOn  audit.Risk
}

// FileChange is one file that a candidate adds, modifies or deletes.
type FileChange = skilltree.FileChange

// Review reads a candidate and shows what publishing it now would merge, computed as publish
// computes it, diffed against the publish branch and audited under the publish branch's
// policy. The audit always runs here, as `skillgit audit` does. A candidate whose branch
// changes anything outside its scope is BLOCKED, whatever the audit says.
func (r *Repo) Review(id string) (*Review, error) {
	ch, c, err := r.book().CandidateChain(id)
	if err != nil {
		return nil, err
	}
	m, err := newPlanner(r).plan(ch, r.tip)
	if err != nil {
		return nil, err
	}
	rv := &Review{Candidate: c, Scope: m.scope, Files: []FileChange{}}
	if ch.IsPolicy() {
		if rv.Policy, err = policydiff.New(r.git, r.book()).Summary(m.startTree, m.tree); err != nil {
			return nil, err
		}
	}
	for _, f := range m.conflicts {
		rv.Conflicts = append(rv.Conflicts, f.Path)
	}
	shown := append(slices.Clone(m.changes), m.conflicts...)
	if err := rv.diff(r.git, shown); err != nil {
		return nil, err
	}
	if err := rv.audit(r, newPlanner(r).items(shown, c, ch)); err != nil {
		return nil, err
	}
	if !m.scope.InScope() {
		rv.Verdict = audit.VerdictBlocked
	}
	return rv, nil
}

// diff lists and diffs the files of each folder shown.
func (rv *Review) diff(g *gitstore.Repo, shown []skilltree.Change) error {
	var diff strings.Builder
	for _, f := range shown {
		files, d, err := skilltree.FileDiff(g, f)
		if err != nil {
			return err
		}
		rv.Files = append(rv.Files, files...)
		diff.WriteString(d)
	}
	rv.Diff = diff.String()
	return nil
}

// audit audits the folders shown under the policy of r's publish branch, with the acceptances
// of the candidate's current approvals.
func (rv *Review) audit(r *Repo, items []auditrun.Item) error {
	ar := r.AuditRunner()
	policy, err := ar.PolicyAt(r.tip, gitstore.ShortRef(r.branch))
	if err != nil {
		return err
	}
	rv.FailOn, rv.Reports = policy.FailOn, []audit.SkillReport{}
	if len(items) > 0 {
		if rv.Reports, err = ar.Auditor(policy).Run(items); err != nil {
			return err
		}
	}
	rv.Risk = audit.Overall(rv.Reports)
	rv.Verdict = audit.Judge(rv.Reports, rv.FailOn)
	return nil
}
