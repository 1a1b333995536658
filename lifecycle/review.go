package lifecycle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
)

// Review is what a reviewer needs to decide on a candidate.
type Review struct {
	Candidate *Candidate
	// Files lists the files of the skill folder that differ from the publish branch.
	Files []FileChange
	// Diff is the unified diff of the skill folder against the publish branch.
	Diff string
	// Reports holds the audit of the candidate's folder, compared with the published one.
	Reports []audit.SkillReport
	Risk    audit.Risk
	Verdict audit.Verdict
	FailOn  audit.Risk
}

// FileChange is one file that a candidate adds, modifies or deletes.
type FileChange struct {
	Path   string `json:"path"`
	Status string `json:"status"`
}

// Review reads a candidate, diffs its skill folder against the publish branch and audits it
// under the publish branch's policy. The audit always runs here, as `skillgit audit` does.
func (r *Repo) Review(id string) (*Review, error) {
	c, err := r.Candidate(id)
	if err != nil {
		return nil, err
	}
	it, err := r.candidateItem(c, writersOf(c))
	if err != nil {
		return nil, err
	}
	rv := &Review{Candidate: c}
	if rv.Files, rv.Diff, err = r.folderDiff(c.Path, it.Base, it.Tree); err != nil {
		return nil, err
	}
	return rv, r.reviewAudit(rv, it)
}

// reviewAudit audits the candidate's folder under the publish branch's policy, with the
// acceptances of its current approvals.
func (r *Repo) reviewAudit(rv *Review, it AuditItem) error {
	policy, err := r.PolicyAt(r.Tip, short(r.Branch))
	if err != nil {
		return err
	}
	rv.FailOn, rv.Reports = policy.FailOn, []audit.SkillReport{}
	if !it.Tree.IsZero() {
		a := &Auditor{Git: r.Git, Policy: policy, Cache: r.AuditCache()}
		if rv.Reports, err = a.Run([]AuditItem{it}); err != nil {
			return err
		}
	}
	rv.Risk = audit.Overall(rv.Reports)
	rv.Verdict = audit.Judge(rv.Reports, rv.FailOn)
	return nil
}

// writersOf lists who wrote a candidate's content, from its history, as authors does from its
// chain.
func writersOf(c *Candidate) []string {
	var out []string
	for _, e := range c.History {
		if e.Action == actApprove || e.Action == actReject || e.Action == actRebase {
			continue
		}
		if !slices.Contains(out, e.Who.Email) {
			out = append(out, e.Who.Email)
		}
	}
	return out
}

// folderDiff lists and diffs the files of folder p between two trees (zero for none).
func (r *Repo) folderDiff(p string, from, to gitstore.Hash) ([]FileChange, string, error) {
	a, err := r.treeObject(from)
	if err != nil {
		return nil, "", err
	}
	b, err := r.treeObject(to)
	if err != nil {
		return nil, "", err
	}
	changes, err := object.DiffTree(a, b)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	files := make([]FileChange, 0, len(changes))
	for _, ch := range changes {
		files = append(files, fileChange(p, ch))
	}
	patch, err := changes.Patch()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	return files, prefixPatch(patch.String(), p), nil
}

func (r *Repo) treeObject(h gitstore.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return &object.Tree{}, nil
	}
	return r.Git.Git().TreeObject(h)
}

func fileChange(p string, ch *object.Change) FileChange {
	switch {
	case ch.From.Name == "":
		return FileChange{Path: p + "/" + ch.To.Name, Status: "added"}
	case ch.To.Name == "":
		return FileChange{Path: p + "/" + ch.From.Name, Status: "deleted"}
	}
	return FileChange{Path: p + "/" + ch.To.Name, Status: "modified"}
}

// prefixPatch turns the folder-relative file names of a patch into repository paths.
func prefixPatch(patch, p string) string {
	lines := strings.SplitAfter(patch, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "diff --git a/"):
			l = strings.Replace(l, " a/", " a/"+p+"/", 1)
			lines[i] = strings.Replace(l, " b/", " b/"+p+"/", 1)
		case strings.HasPrefix(l, "--- a/"), strings.HasPrefix(l, "+++ b/"):
			lines[i] = l[:6] + p + "/" + l[6:]
		}
	}
	return strings.Join(lines, "")
}
