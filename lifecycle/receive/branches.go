package receive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// maxGuardWalk bounds how many commits of the publish branch's first-parent line are read for
// the branch names its configuration ever gave as the publish branch.
const maxGuardWalk = 100000

// branchAdvice is what a refused push of another branch should do instead.
const branchAdvice = "keep skills work on candidate branches (`skillgit propose`, then `skillgit push`)"

// branches adds to run a refusal for every update of a branch, other than the publish branch
// and canary (which update and canary judge), that could make a second publish branch: one a
// clone would read skills from in place of the publish branch. Refused are moving or creating
// a branch that a configuration on the publish branch's history ever named as the publish
// branch, a branch whose pushed tip holds a configuration naming that very branch, and a
// branch that holds a configuration where a clone looks before the publish branch (main, or
// the branch this repository's HEAD names). Deleting such a branch takes nothing from the
// publish branch and is let through.
func (g *guard) branches(run *auditrun.HookRun, updates []gitstore.RefUpdate) error {
	bg := &branchGuard{r: g.r}
	for _, u := range updates {
		if u.Ref == g.r.Branch() || u.Ref == ledger.CanaryRef || !strings.HasPrefix(u.Ref, "refs/heads/") || u.New.IsZero() {
			continue
		}
		why, err := bg.check(u)
		if err != nil {
			return fmt.Errorf("%s: %w", u.Ref, err)
		}
		if why != "" {
			run.Refusals = append(run.Refusals, fmt.Sprintf("%s: %s", gitstore.ShortRef(u.Ref), why))
		}
	}
	return nil
}

// branchGuard judges the branch updates of one push; named, the branch names the publish
// branch's history gave as publish_branch, is read once, when first needed.
type branchGuard struct {
	r     *lifecycle.Repo
	named []string
}

// check says why update u, which creates or moves a branch, is refused; empty when it is not.
func (bg *branchGuard) check(u gitstore.RefUpdate) (string, error) {
	publish := gitstore.ShortRef(bg.r.Branch())
	was, err := bg.wasPublishBranch(gitstore.ShortRef(u.Ref))
	if err != nil {
		return "", err
	}
	if was {
		return fmt.Sprintf("%s on the history of %s named this branch the publish branch; server.protect is on: it is guarded, and skills are published on %s only; %s",
			policy.ConfigFile, publish, publish, branchAdvice), nil
	}
	names, has, err := lifecycle.ConfigNameAt(bg.r.Git(), u.New)
	switch {
	case err != nil || !has:
		return "", err
	case names == gitstore.ShortRef(u.Ref):
		return fmt.Sprintf("its %s names it the publish branch (publish_branch: %s) while this repository publishes on %s; server.protect is on: a second publish branch is refused; keep publish_branch: %s, and %s",
			policy.ConfigFile, names, publish, publish, branchAdvice), nil
	case bg.readBefore(u.Ref):
		return fmt.Sprintf("it holds a %s, and a clone of this repository may read this branch before the publish branch %s; server.protect is on: refused; remove %s from the branch, or %s",
			policy.ConfigFile, publish, policy.ConfigFile, branchAdvice), nil
	}
	return "", nil
}

// wasPublishBranch reports whether a configuration on the publish branch's first-parent line
// named branch as the publish branch.
func (bg *branchGuard) wasPublishBranch(branch string) (bool, error) {
	if bg.named == nil {
		named, err := publishNamesOnHistory(bg.r.Git(), bg.r.Tip())
		if err != nil {
			return false, err
		}
		bg.named = named
	}
	return slices.Contains(bg.named, branch), nil
}

// readBefore reports whether ref is a branch a client may read before the publish branch: main,
// which a clone without skillgit.publishBranch tries first, or the branch this repository's
// HEAD names, which a cached clone follows.
func (bg *branchGuard) readBefore(ref string) bool {
	if ref == "refs/heads/main" {
		return true
	}
	head, err := bg.r.Git().Refs().HeadBranch()
	return err == nil && head == ref
}

// publishNamesOnHistory lists, each once, the branches the configurations on the first-parent
// line from tip named as publish_branch, back to its first commit or maxGuardWalk commits.
func publishNamesOnHistory(git *gitstore.Repo, tip gitstore.Hash) ([]string, error) {
	out := []string{}
	seen := map[gitstore.Hash]bool{}
	n := 0
	err := git.History().WalkFirstParent(tip, func(_ gitstore.Hash, c *object.Commit) error {
		if n++; n > maxGuardWalk {
			return gitstore.ErrStop
		}
		e, ok, err := git.Objects().EntryAt(c.TreeHash, policy.ConfigFile)
		if err != nil || !ok || seen[e.Hash] {
			return err
		}
		seen[e.Hash] = true
		if name := lifecycle.ConfigNameOf(git, e.Hash); !slices.Contains(out, name) {
			out = append(out, name)
		}
		return nil
	})
	return out, err
}
