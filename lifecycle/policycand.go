package lifecycle

import (
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/policydiff"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// ChangePolicy is the change of a policy candidate: it changes the repository's configuration,
// allow list, pack lock or signers, never a skill. People approve and publish it; the mode
// never does.
const ChangePolicy Change = "policy"

// PolicySkill is the name a policy candidate goes by where a skill's name would stand. It
// cannot be a skill's name, which never starts with a dot.
const PolicySkill = ".skillgit"

// policyScope moves the changed paths a policy candidate declares out of s.Outside and
// records each declared path that changed between baseTree and tipTree as a change to merge.
func (p planner) policyScope(s *Scope, baseTree, tipTree gitstore.Hash) error {
	var outside []string
	for _, o := range s.Outside {
		if !slices.ContainsFunc(s.Declared, func(d string) bool { return ledger.InFolder(o, d) }) {
			outside = append(outside, o)
		}
	}
	s.Outside = outside
	for _, d := range s.Declared {
		f, changed, err := policydiff.PathChange(p.r.book(), d, baseTree, tipTree)
		if err != nil {
			return err
		}
		if changed {
			s.folders = append(s.folders, f)
		}
	}
	return nil
}

// pathHash is what a change's path holds in tree, read through bk: a folder's tree, or for a
// file change the file's blob; zero when there is none.
func pathHash(bk *ledger.Book, tree gitstore.Hash, f skilltree.Change) (gitstore.Hash, error) {
	if f.Mode == 0 {
		return bk.FolderAt(tree, f.Path)
	}
	e, err := bk.EntryAt(tree, f.Path)
	if err != nil || e.Mode == filemode.Dir {
		return gitstore.ZeroHash, err
	}
	return e.Hash, nil
}

// checkPolicy refuses to publish a policy candidate whose merged configuration or allow
// list does not parse, and returns the skills to audit besides: when the merged configuration
// moves skills_dir, every skill of the new folder, which the publish makes skills.
func (p planner) checkPolicy(m *merge, id string) ([]auditrun.Item, error) {
	r := p.r
	cfg, problems, err := r.AuditRunner().NewPolicyProblems(m.startTree, m.tree, "candidate/"+id)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s: %w: %s; reject it and propose the policy again", id, ErrRefused, problems[0])
	}
	if err := keepsPublishBranch(r.cfg, cfg); err != nil {
		return nil, fmt.Errorf("%s: %w; reject it", id, err)
	}
	if cfg == nil || cfg.SkillsDir == r.cfg.SkillsDir {
		return nil, nil
	}
	return r.AuditRunner().ChangedSkills(gitstore.ZeroHash, m.tree, cfg.SkillsDir)
}

// keepsPublishBranch refuses a policy change from cur to cfg that names another publish
// branch: once on the branch, a configuration that names another one stops every command
// there. Moving the publish branch is a git rename, not a policy change.
func keepsPublishBranch(cur, cfg *policy.Config) error {
	if cfg == nil || cfg.PublishBranch == cur.PublishBranch {
		return nil
	}
	return fmt.Errorf("%s: %w: publish_branch may not change from %q to %q by a policy change; rename the branch with git (`git branch -m`), set `git config skillgit.publishBranch`, then commit the matching %s there",
		policy.ConfigFile, ErrRefused, cur.PublishBranch, cfg.PublishBranch, policy.ConfigFile)
}
