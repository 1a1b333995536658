package lifecycle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/policydiff"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// policyAudit is the Skillgit-Audit value of a policy candidate: no skill is audited, and
// people decide.
const policyAudit = "not a skill: a policy change always needs a person"

// ProposeConfig proposes the policy files as the working tree holds them (.skillgit.yaml, the
// files of .skillgit/ and the allow list) as a policy candidate. The configuration and allow
// list must parse. Like a skill, the change is published only once people other than its
// author approve it; the mode never approves or publishes it.
func (r *Repo) ProposeConfig(o ProposeOptions) (*Result, error) {
	wt := r.git.WorktreeDir()
	if wt == "" {
		return nil, fmt.Errorf("%s has no working tree: propose --config reads the policy files from one; clone the repository, edit %s there and run it again",
			repoLabel(r.git), policy.ConfigFile)
	}
	tree, err := worktreePolicy(r.git, r.tree, r.cfg.PolicyPaths(), wt)
	if err != nil {
		return nil, err
	}
	return r.ProposePolicy(tree, "", o)
}

// worktreePolicy is tree with the policy files paths of the working tree at wt in place of its
// own.
func worktreePolicy(g *gitstore.Repo, tree gitstore.Hash, paths []string, wt string) (gitstore.Hash, error) {
	root, err := os.OpenRoot(wt)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	defer root.Close()
	for _, p := range paths {
		e, err := worktreeEntry(g, root, p)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		if p == policy.ConfigFile && e == nil {
			return gitstore.ZeroHash, fmt.Errorf("%s: not in the working tree %s; restore it before proposing the policy", policy.ConfigFile, wt)
		}
		if tree, err = g.Writes().ReplacePath(tree, p, e); err != nil {
			return gitstore.ZeroHash, err
		}
	}
	return tree, nil
}

// plainFS hides every interface of an fs.FS but Open, so that a symbolic link is refused
// rather than stored.
type plainFS struct{ fs.FS }

// worktreeEntry stores path p of the working tree, a regular file or a folder, and returns its
// tree entry; nil when the working tree has nothing there.
func worktreeEntry(g *gitstore.Repo, root *os.Root, p string) (*gitstore.TreeEntry, error) {
	st, err := root.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case st.IsDir():
		h, err := g.Writes().WriteDir(plainFS{root.FS()}, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return skilltree.DirEntry(h), nil
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file; a policy file must be one", p)
	}
	data, err := readBounded(root, p, policy.MaxConfigSize)
	if err != nil {
		return nil, err
	}
	h, err := g.Writes().WriteBlob(data)
	return &gitstore.TreeEntry{Mode: filemode.Regular, Hash: h}, err
}

// readBounded reads file p of root, refusing one over limit bytes.
func readBounded(root *os.Root, p string, limit int64) ([]byte, error) {
	data, err := boundedfile.UpTo(root.FS(), p, limit)
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: larger than the %d-byte limit of a policy file", p, limit)
	}
	return data, err
}

// ProposePolicy creates a policy candidate whose tree is tree: the publish branch's with
// policy files changed, and nothing else. The configuration and allow list of tree must
// parse. body, when not empty, explains the change in place of o.Message.
func (r *Repo) ProposePolicy(tree gitstore.Hash, body string, o ProposeOptions) (*Result, error) {
	sig, warn, err := r.Actor(o.ActOptions)
	if err != nil {
		return nil, err
	}
	paths, err := proposedPolicy(r, tree)
	if err != nil {
		return nil, err
	}
	if err := checkOpenPolicy(r, tree); err != nil {
		return nil, err
	}
	summary, err := policydiff.New(r.git, r.book()).Summary(r.tree, tree)
	if err != nil {
		return nil, err
	}
	res := &Result{Action: actPropose, Skill: PolicySkill, Change: ChangePolicy, Risk: "medium", Audit: policyAudit, Policy: summary}
	res.addWarning(warn)
	if o.Message != "" {
		body = o.Message
	}
	msg := func(id string) string { return policyMessage(id, paths, body, summary, r.tip, o) }
	t := &tx{r: r, sig: sig}
	if err := t.createCandidate(tree, "policy", msg, res); err != nil {
		return nil, err
	}
	t.done(res)
	return res, nil
}

// proposedPolicy refuses a proposed policy tree that changes nothing against the publish branch,
// changes anything but policy files, or holds a configuration or allow list that does not
// parse; it returns the policy paths it changes.
func proposedPolicy(r *Repo, tree gitstore.Hash) ([]string, error) {
	if tree == r.tree {
		return nil, fmt.Errorf("nothing to propose: the policy files on %s are already exactly these; edit %s or the files of %s/ first",
			gitstore.ShortRef(r.branch), policy.ConfigFile, policy.Dir)
	}
	cfg, problems, err := r.AuditRunner().NewPolicyProblems(r.tree, tree, "proposed")
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s: %w: nothing was proposed", problems[0], ErrRefused)
	}
	if err := keepsPublishBranch(r.cfg, cfg); err != nil {
		return nil, fmt.Errorf("%w; nothing was proposed", err)
	}
	var paths []string
	for _, p := range r.cfg.PolicyPaths() {
		if _, changed, err := policydiff.PathChange(r.book(), p, r.tree, tree); err != nil {
			return nil, err
		} else if changed {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// policyMessage is the propose commit of a policy candidate: one Skillgit-Path per policy
// path it changes, and what it changes in the body.
func policyMessage(id string, paths []string, body string, summary []string, base gitstore.Hash, o ProposeOptions) string {
	if body == "" {
		body = "Change of the repository's policy."
	}
	body += "\n\n" + policydiff.BulletList(summary)
	ts := trailerList{}.add(keyAction, actPropose).add(keySkill, PolicySkill).add(keyCandidate, id).
		add(keyChange, string(ChangePolicy))
	for _, p := range slices.Compact(paths) {
		ts = ts.add(keyPath, p)
	}
	ts = ts.add(keyBase, base.String()).add(keyRisk, "medium").add(keyAudit, policyAudit)
	return ts.message("propose: policy", body, o.ActOptions)
}
