package lifecycle

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// ProposeOptions says what to propose or revise.
type ProposeOptions struct {
	ActOptions
	// Target is a skill folder's path or a skill's name.
	Target string
	// From is a folder on disk to snapshot, such as an agent's .claude/skills/foo.
	From string
	// Delete proposes removing the published skill Target.
	Delete bool
	// Message explains the change; for a revise it is the feedback and is required.
	Message string
	// Source, when not nil, holds the skill folder SourceDir to snapshot in place of From,
	// such as the tree of a fetched pack.
	Source    fs.FS
	SourceDir string
	// SourceLabel names Source in messages, such as "the skill sent over MCP"; empty names it
	// PACK:SOURCEDIR.
	SourceLabel string
	// Base, when not zero, is the commit of the publish branch to build the candidate on in
	// place of its tip, such as the one a skill was installed from: publish then merges the
	// candidate with what was published since, and never reverts it.
	Base gitstore.Hash
	// Pack, when set, is the Skillgit-Pack trailer, NAME@COMMIT: the pack the change comes
	// from. Such a candidate is left to people: the mode never approves or publishes it.
	Pack string
	// Lenient admits a new skill from Source that agents load though the reference validator
	// refuses it (a long description, unknown frontmatter keys): its problems become
	// warnings, listed in the candidate's message under a Skillgit-Lenient trailer.
	Lenient bool
	// FromRev, when set, is a git revision (a commit, a publish, main~3): the skill Target is
	// proposed as that commit holds it, such as a version a rollback removed.
	FromRev string
	// mergedFrom, on a revise, is the candidate merge-candidate folds in: the Skillgit-Merged-From
	// trailer, and left out of the dedupe check.
	mergedFrom string
	// fromCommit is the commit FromRev names.
	fromCommit gitstore.Hash
}

// Propose snapshots one skill folder into a new candidate branch built from objects, without
// touching HEAD, the index or the working tree, audits it, and lets the mode's policy act on
// it.
func (r *Repo) Propose(o ProposeOptions) (*Result, error) {
	sig, warn, err := r.Actor(o.ActOptions)
	if err != nil {
		return nil, err
	}
	t := &tx{r: r, sig: sig}
	if o, err = r.fromRevision(o); err != nil {
		return nil, err
	}
	snap, err := r.onBase(o.Base, func() (*snapshot, error) { return r.proposal(o) })
	if err != nil {
		return nil, err
	}
	if managedByOf(snap.change, o) != "" {
		if err := r.markManaged(snap); err != nil {
			return nil, err
		}
	}
	res := &Result{Action: actPropose, Skill: snap.skill.Name, Change: snap.change, Warnings: snap.warnings}
	res.addWarning(warn)
	if err := r.checkOpenOfSkill(snap, res, o); err != nil {
		return nil, err
	}
	if err := r.auditSnapshot(snap, res, o.ActOptions); err != nil {
		return nil, err
	}
	if err := r.dedupe(snap, res, ""); err != nil {
		return nil, err
	}
	if _, err := r.onBase(o.Base, func() (*snapshot, error) { return nil, r.writeProposal(t, snap, res, o) }); err != nil {
		return nil, err
	}
	if o.Pack == "" {
		err = r.automate(res, o.ActOptions)
	}
	t.done(res)
	return res, err
}

// writeProposal writes the candidate's commit on the publish branch's tip, or on o.Base.
func (r *Repo) writeProposal(t *tx, snap *snapshot, res *Result, o ProposeOptions) error {
	tree, err := r.Git.ReplacePath(r.Tree, snap.dest, snap.entry())
	if err != nil {
		return err
	}
	msg := func(id string) string { return proposeMessage(id, snap, res, r.Tip, o) }
	return t.createCandidate(tree, snap.skill.Name, msg, res)
}

// proposal reads what is proposed: a deletion, or a folder snapshot that must differ from
// what is published.
func (r *Repo) proposal(o ProposeOptions) (*snapshot, error) {
	if o.Delete {
		if o.From != "" {
			return nil, fmt.Errorf("--delete takes a skill name, not --from")
		}
		return r.deletion(o.Target)
	}
	if !o.fromCommit.IsZero() {
		return r.changed(r.revisionSnapshot(o))
	}
	if o.Source != nil {
		return r.changed(r.snapshotFSMode(o.Source, o.SourceDir, o.sourceLabel(), "", o.Target, o.Lenient))
	}
	dir, err := r.sourceDir(o.Target, o.From)
	if err != nil {
		return nil, err
	}
	want := ""
	if o.From != "" && o.Target != "" {
		want = o.Target
	}
	return r.changed(r.snapshotDir(dir, want))
}

// changed passes on a snapshot that differs from what is published.
func (r *Repo) changed(snap *snapshot, err error) (*snapshot, error) {
	if err != nil {
		return nil, err
	}
	if snap.tree == snap.old {
		return nil, fmt.Errorf("%s: nothing to propose: %s on %s is already exactly this", snap.skill.Name, snap.dest, short(r.Branch))
	}
	return snap, nil
}

// auditSnapshot audits the proposed folder against the published one, unless the skip switch
// is on, and records the verdict in res.
func (r *Repo) auditSnapshot(snap *snapshot, res *Result, o ActOptions) error {
	if snap.change == ChangeDelete {
		res.Risk, res.Audit = audit.RiskLow.String(), verdictSummary(audit.VerdictPass, 0)
		return nil
	}
	v, reports, err := r.auditTrees(r.Tip, []auditrun.Item{{Name: snap.skill.Name, Path: snap.dest, Tree: snap.tree,
		Base: snap.old, BaseLabel: short(r.Branch)}}, o, res)
	res.Risk, res.Audit, res.Reports = v.Risk, v.Audit, reports
	if err == nil && v.Risk == audit.RiskHigh.String() {
		res.addWarning(fmt.Sprintf("warning: %s: the audit rates this change high risk; it cannot be published while the audit is on (see `skillgit review`)", snap.skill.Name))
	}
	return err
}

// auditTrees audits items under the policy committed in policyFrom, unless the skip switch
// is on, and sums them up for the trailers.
func (r *Repo) auditTrees(policyFrom gitstore.Hash, items []auditrun.Item, o ActOptions, res *Result) (auditVerdict, []audit.SkillReport, error) {
	ar := r.AuditRunner()
	cfg, _, err := ar.ConfigAt(policyFrom, short(r.Branch))
	if err != nil {
		return auditVerdict{}, nil, err
	}
	if skip, warn := policy.AuditSkipped(cfg, o.getenv); skip {
		res.addWarning(warn)
		return auditVerdict{Risk: "unknown", Audit: "skipped"}, nil, nil
	}
	policy, err := ar.PolicyAt(policyFrom, short(r.Branch))
	if err != nil {
		return auditVerdict{}, nil, err
	}
	reports, err := ar.Auditor(policy).Run(items)
	if err != nil {
		return auditVerdict{}, nil, err
	}
	findings := 0
	for _, sr := range reports {
		findings += len(sr.Report.Findings)
	}
	return auditVerdict{Risk: audit.Overall(reports).String(),
		Audit: verdictSummary(audit.Judge(reports, policy.FailOn), findings)}, reports, nil
}

// verdictSummary is the value of a Skillgit-Audit trailer for an audit that ran and reached
// verdict v under the policy: "pass", "needs review" or "blocked", then the ruleset and the
// number of findings, so a blocked change never reads as passed.
func verdictSummary(v audit.Verdict, findings int) string {
	return fmt.Sprintf("%s (ruleset %d, %d findings)", strings.ToLower(v.String()), audit.RulesetVersion, findings)
}

// auditInto audits what an action writes under the publish branch's policy and records the
// verdict in res; nothing to audit (a deletion) is low risk. It reports whether the audit
// rates the change high risk.
func (r *Repo) auditInto(items []auditrun.Item, res *Result, o ActOptions) (bool, error) {
	v := auditVerdict{Risk: audit.RiskLow.String(), Audit: verdictSummary(audit.VerdictPass, 0)}
	if len(items) > 0 {
		var err error
		if v, res.Reports, err = r.auditTrees(r.Tip, items, o, res); err != nil {
			return false, err
		}
	}
	res.Risk, res.Audit = v.Risk, v.Audit
	return v.Risk == audit.RiskHigh.String(), nil
}

func proposeMessage(id string, snap *snapshot, res *Result, base gitstore.Hash, o ProposeOptions) string {
	subject := "propose: " + snap.skill.Name
	if snap.change == ChangeDelete {
		subject = "propose: delete " + snap.skill.Name
	}
	body := o.Message
	if body == "" {
		body = defaultBody[snap.change]
	}
	lenient := ""
	if len(snap.lenient) > 0 {
		subject += " (lenient)"
		body += "\n\nAdmitted leniently; the reference validator refuses it:\n  " + strings.Join(snap.lenient, "\n  ")
		lenient = strconv.Itoa(len(snap.lenient)) + " problem(s)"
	}
	ts := trailerList{}.add(keyAction, actPropose).add(keySkill, snap.skill.Name).add(keyCandidate, id).
		add(keyChange, string(snap.change)).add(keyPath, snap.dest).add(keyBase, base.String()).
		add(keyRisk, res.Risk).add(keyAudit, res.Audit).add(keyPack, o.Pack).add(keyLenient, lenient).add(keyManagedBy, managedByOf(snap.change, o))
	ts = duplicateTrailers(ts, res.Overlaps)
	return ts.message(subject, body, o.ActOptions)
}

var defaultBody = map[Change]string{
	ChangeCreate: "New skill.",
	ChangePatch:  "Update of the published skill.",
	ChangeDelete: "Remove the skill.",
}

func (res *Result) addWarning(w string) {
	if w != "" {
		res.Warnings = append(res.Warnings, w)
	}
}

// sourceLabel names an in-memory source in messages.
func (o ProposeOptions) sourceLabel() string {
	if o.SourceLabel != "" {
		return o.SourceLabel
	}
	return o.Pack + ":" + o.SourceDir
}
