package lifecycle

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
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
	if o, err = fromRevision(r.git, o); err != nil {
		return nil, err
	}
	p := &proposal{t: &tx{r: r, sig: sig}, o: o}
	snap, err := p.onBase(p.read)
	if err != nil {
		return nil, err
	}
	res, err := p.check(snap, warn)
	if err != nil {
		return nil, err
	}
	if _, err := p.onBase(func() (*snapshot, error) { return nil, p.write(snap, res) }); err != nil {
		return nil, err
	}
	if o.Pack == "" {
		err = automate(r, res, o.ActOptions)
	}
	p.t.done(res)
	return res, err
}

// proposal is a new candidate being proposed: what the actor asked for.
type proposal struct {
	t *tx
	o ProposeOptions
}

// read reads what is proposed: a deletion, or a folder snapshot that must differ from what
// is published.
func (p *proposal) read() (*snapshot, error) {
	o, sn := p.o, newSnapshots(p.t.r)
	if o.Delete {
		if o.From != "" {
			return nil, fmt.Errorf("--delete takes a skill name, not --from")
		}
		return sn.deletion(o.Target)
	}
	if !o.fromCommit.IsZero() {
		return p.changed(sn.atRevision(o))
	}
	if o.Source != nil {
		return p.changed(sn.fs(o.Source, o.SourceDir, o.sourceLabel(), "", o.Target, o.Lenient))
	}
	dir, err := sn.sourceDir(o.Target, o.From)
	if err != nil {
		return nil, err
	}
	want := ""
	if o.From != "" && o.Target != "" {
		want = o.Target
	}
	return p.changed(sn.dir(dir, want))
}

// changed passes on a snapshot that differs from what is published.
func (p *proposal) changed(snap *snapshot, err error) (*snapshot, error) {
	if err != nil {
		return nil, err
	}
	if snap.tree == snap.old {
		return nil, fmt.Errorf("%s: nothing to propose: %s on %s is already exactly this", snap.skill.Name, snap.dest, gitstore.ShortRef(p.t.r.branch))
	}
	return snap, nil
}

// check marks a new skill an unattended actor proposes as managed, refuses what an open
// candidate already proposes, audits the snapshot and compares it with the other skills; the
// result it returns records all of it, after warn, the warning of resolving who acts.
func (p *proposal) check(snap *snapshot, warn string) (*Result, error) {
	r, o := p.t.r, p.o
	if managedByOf(snap.change, o) != "" {
		if err := snap.markManaged(r.git); err != nil {
			return nil, err
		}
	}
	res := &Result{Action: actPropose, Skill: snap.skill.Name, Change: snap.change, Warnings: snap.warnings}
	res.addWarning(warn)
	if err := p.checkOpen(snap, res); err != nil {
		return nil, err
	}
	if err := (actAudit{r: r, o: o.ActOptions}).snapshot(snap, res); err != nil {
		return nil, err
	}
	if err := (dupCheck{r: r}).record(snap, res, ""); err != nil {
		return nil, err
	}
	return res, nil
}

// write writes the candidate's commit on the publish branch's tip, or on o.Base.
func (p *proposal) write(snap *snapshot, res *Result) error {
	r := p.t.r
	tree, err := r.git.Writes().ReplacePath(r.tree, snap.dest, snap.entry())
	if err != nil {
		return err
	}
	msg := func(id string) string { return proposeMessage(id, snap, res, r.tip, p.o) }
	if err := p.t.createCandidate(tree, snap.skill.Name, msg, res); err != nil {
		return err
	}
	sk := snap.skill
	if snap.change == ChangeDelete {
		sk = nil
	}
	return r.proposed(res.ID, plumbing.NewHash(res.Commit), sk)
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
