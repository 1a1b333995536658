package auditrun

import (
	"errors"
	"fmt"
	"io"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Request says what `skillgit audit` audits.
type Request struct {
	// Dir is where skillgit runs; the repository, if any, is found from it.
	Dir string
	// Paths are skill folders or folders of skills on disk, relative to Dir or absolute.
	// Without Paths and Rev, the repository's skills folder is audited: in the working
	// tree, or on the publish branch of a bare repository.
	Paths []string
	// Rev is "REV" (every skill in that commit) or "A..B" (the skills that the commits of
	// A..B change, each compared with its version where B forked from A, under the policy
	// committed in A). "A...B" is the same range.
	Rev string
	// Base is a revision to compare the folders of Paths with; the policy is read from it.
	Base string
	// FailOn overrides the policy's blocking risk; empty keeps it.
	FailOn string
	// NoCache neither reads nor stores cached results.
	NoCache bool
	// Print, when set, has Audit print the report too. The report of a whole skills folder
	// that was printed before in the same way is then copied from the cache, without reading
	// each skill's report.
	Print *Print
}

// Print says where and how Audit prints its report.
type Print struct {
	Out    io.Writer
	Format audit.Format
	// Color and Version are the options of audit.Write that the caller decides; the audit
	// sets the others.
	Color   bool
	Version string
}

// Result is the outcome of Audit.
type Result struct {
	// Reports holds one report per skill, in path order; nil when the request's Print was
	// served from the cache.
	Reports []audit.SkillReport
	// Policy is the policy the skills were audited under.
	Policy *policy.AuditPolicy
	// FailOn is the risk that blocks: the request's, else the policy's.
	FailOn audit.Risk
	// Title says what was audited, such as "main..HEAD" or "skills".
	Title string
	// Verdict is the judgement on every report at FailOn.
	Verdict audit.Verdict
}

// Opener opens the skillgit repository at or above dir for an audit; nil, with no error,
// when there is none. The caller closes the runner's Git.
type Opener func(dir string) (*Runner, error)

// errNoRepository explains an audit option that needs a skillgit repository.
var errNoRepository = errors.New("needs a skillgit repository; run it inside one or pass -C DIR")

// Audit runs the security audit a request asks for, in the repository open finds at req.Dir
// or, without one, on folders alone. It always runs: the skip switch governs the automatic
// audits of the lifecycle, never this diagnostic.
func Audit(open Opener, req Request) (*Result, error) {
	if req.Rev != "" && (len(req.Paths) > 0 || req.Base != "") {
		return nil, fmt.Errorf("--rev audits commits; it cannot be combined with PATH or --base")
	}
	r, err := open(req.Dir)
	if err != nil {
		return nil, err
	}
	if r != nil {
		defer r.Git.Close()
	} else if req.Rev != "" || req.Base != "" {
		return nil, fmt.Errorf("--rev and --base %w", errNoRepository)
	}
	plan, err := planAudit(r, req)
	if err != nil {
		return nil, err
	}
	return plan.run(r, req)
}

// auditPlan is what an audit request resolved to.
type auditPlan struct {
	items  []Item
	policy *policy.AuditPolicy
	title  string
	// whole, when set, is every skill of one skills folder: its items are listed only when
	// the whole result is not cached.
	whole *wholeFolder
}

func planAudit(r *Runner, req Request) (*auditPlan, error) {
	if req.Rev == "" && len(req.Paths) == 0 && r != nil && r.Git.WorktreeDir() == "" {
		req.Rev = gitstore.ShortRef(r.Branch)
	}
	if req.Rev != "" {
		return r.planRev(req.Rev)
	}
	return planPaths(r, req)
}

func (p *auditPlan) run(r *Runner, req Request) (*Result, error) {
	failOn := p.policy.FailOn
	if req.FailOn != "" {
		var err error
		if failOn, err = audit.ParseRisk(req.FailOn); err != nil {
			return nil, fmt.Errorf("--fail-on: %w", err)
		}
	}
	a := &Auditor{Policy: p.policy}
	if r != nil {
		a.Git = r.Git
		if !req.NoCache {
			a.Cache = r.Cache()
		}
	}
	res := &Result{Policy: p.policy, FailOn: failOn, Title: p.title}
	if req.Print != nil {
		if err := p.print(a, req.Print, res); err != nil {
			return nil, err
		}
		return res, nil
	}
	reports, err := p.reports(a)
	if err != nil {
		return nil, err
	}
	res.Reports, res.Verdict = reports, audit.Judge(reports, failOn)
	return res, nil
}

// planRev plans an audit of commits: every skill of one, or the skills that the commits of a
// range change. A skill that A changed after B forked from it is not B's change, so each skill
// is compared with its version at the merge base of A and B, not with A.
func (r *Runner) planRev(spec string) (*auditPlan, error) {
	rr, err := parseRevRange(spec)
	if err != nil {
		return nil, err
	}
	head, headTree, err := r.resolve(rr.head)
	if err != nil {
		return nil, err
	}
	if rr.base == "" {
		return r.planCommit(spec, headTree)
	}
	base, _, err := r.resolve(rr.base)
	if err != nil {
		return nil, err
	}
	fork, forkTree, err := r.forkPoint(base, head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	policy, err := r.PolicyAt(base, rr.base)
	if err != nil {
		return nil, err
	}
	cfg, _, err := r.ConfigAt(base, rr.base)
	if err != nil {
		return nil, err
	}
	items, err := r.ChangedSkills(forkTree, headTree, cfg.SkillsDir)
	if err != nil {
		return nil, err
	}
	label := rr.base
	if fork != base {
		label = rr.base + " at " + fork.String()[:7]
	}
	for i := range items {
		if !items[i].Base.IsZero() {
			items[i].BaseLabel = label
		}
	}
	return &auditPlan{items: items, policy: policy, title: spec}, nil
}

// forkPoint returns the merge base of commits base and head and its root tree; zero for both
// when their histories share no commit, so that every skill of head is new.
func (r *Runner) forkPoint(base, head gitstore.Hash) (gitstore.Hash, gitstore.Hash, error) {
	fork, err := r.Git.History().MergeBase(base, head)
	if err != nil || fork.IsZero() {
		return fork, gitstore.ZeroHash, err
	}
	c, err := r.Git.Objects().Commit(fork)
	if err != nil {
		return fork, gitstore.ZeroHash, err
	}
	return fork, c.TreeHash, nil
}

// planCommit plans an audit of every skill in one commit, under the publish branch's policy.
func (r *Runner) planCommit(rev string, tree gitstore.Hash) (*auditPlan, error) {
	policy, err := r.PolicyAt(r.Tip, gitstore.ShortRef(r.Branch))
	if err != nil {
		return nil, err
	}
	folder, err := ledger.FolderAt(ledger.StoreOf(r.Git), tree, r.Config.SkillsDir)
	if err != nil {
		return nil, fmt.Errorf("%s:%s: %w", rev, r.Config.SkillsDir, err)
	}
	whole := &wholeFolder{tree: folder, path: r.Config.SkillsDir, list: func() ([]Item, error) { return r.Skills(rev, tree) }}
	return &auditPlan{policy: policy, title: rev, whole: whole}, nil
}
