package lifecycle

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

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
type FileChange struct {
	Path   string `json:"path"`
	Status string `json:"status"`
}

// Review reads a candidate and shows what publishing it now would merge, computed as publish
// computes it, diffed against the publish branch and audited under the publish branch's
// policy. The audit always runs here, as `skillgit audit` does. A candidate whose branch
// changes anything outside its scope is BLOCKED, whatever the audit says.
func (r *Repo) Review(id string) (*Review, error) {
	ch, c, err := r.book().CandidateChain(id)
	if err != nil {
		return nil, err
	}
	m, err := newPlanner(r).plan(ch, r.Tip)
	if err != nil {
		return nil, err
	}
	rv := &Review{Candidate: c, Scope: m.scope, Files: []FileChange{}}
	if ch.IsPolicy() {
		if rv.Policy, err = policydiff.New(r.book()).Summary(m.startTree, m.tree); err != nil {
			return nil, err
		}
	}
	for _, f := range m.conflicts {
		rv.Conflicts = append(rv.Conflicts, f.Path)
	}
	shown := append(slices.Clone(m.changes), m.conflicts...)
	if err := rv.diff(r.Git, shown); err != nil {
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
		files, d, err := changeDiff(g, f)
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
	policy, err := ar.PolicyAt(r.Tip, short(r.Branch))
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

// folderFiles lists and diffs the files of folder p between two trees (zero for none).
func folderFiles(g *gitstore.Repo, p string, from, to gitstore.Hash) ([]FileChange, string, error) {
	a, err := skilltree.TreeObject(g, from)
	if err != nil {
		return nil, "", err
	}
	b, err := skilltree.TreeObject(g, to)
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

func fileChange(p string, ch *object.Change) FileChange {
	switch {
	case ch.From.Name == "":
		return FileChange{Path: path.Join(p, ch.To.Name), Status: "added"}
	case ch.To.Name == "":
		return FileChange{Path: path.Join(p, ch.From.Name), Status: "deleted"}
	}
	return FileChange{Path: path.Join(p, ch.To.Name), Status: "modified"}
}

// changeDiff lists and diffs the files of one change: a folder, or a single policy file,
// diffed as the one entry of its folder.
func changeDiff(g *gitstore.Repo, f skilltree.Change) ([]FileChange, string, error) {
	if f.Mode == 0 {
		return folderFiles(g, f.Path, f.Base, f.Head)
	}
	from, err := oneFileTree(g, path.Base(f.Path), f.Mode, f.Base)
	if err != nil {
		return nil, "", err
	}
	to, err := oneFileTree(g, path.Base(f.Path), f.Mode, f.Head)
	if err != nil {
		return nil, "", err
	}
	return folderFiles(g, parentDir(f.Path), from, to)
}

// oneFileTree is a tree holding only blob h as name; zero when h is.
func oneFileTree(g *gitstore.Repo, name string, mode filemode.FileMode, h gitstore.Hash) (gitstore.Hash, error) {
	if h.IsZero() {
		return gitstore.ZeroHash, nil
	}
	return g.WriteTree([]gitstore.TreeEntry{{Name: name, Mode: mode, Hash: h}})
}

// prefixPatch turns the folder-relative file names of a patch into repository paths.
func prefixPatch(patch, p string) string {
	if p == "" {
		return patch
	}
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
