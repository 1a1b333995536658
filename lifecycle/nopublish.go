package lifecycle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// maxNamedBranches bounds how many remote branches a message names.
const maxNamedBranches = 5

// noPublishBranch explains a repository without a publish branch, having looked for the
// branches tried (short names). A clone whose remote's HEAD names a branch the remote does not
// have checks out nothing, so the publish branch exists only as a remote-tracking ref: the
// error then names it and says how to check it out, instead of proposing a new repository.
func noPublishBranch(g *gitstore.Repo, tried []string) error {
	head := ""
	if h, err := g.Refs().HeadBranch(); err == nil && gitstore.ShortRef(h) != "main" {
		head = fmt.Sprintf("; HEAD names %s, a branch with no commits", gitstore.ShortRef(h))
	}
	found := fmt.Sprintf("no publish branch here (looked for %s%s)", strings.Join(tried, ", "), head)
	remote := remoteBranches(g)
	if heads, err := g.Refs().List("refs/heads/"); err == nil && len(heads) == 0 && len(remote) == 0 && g.Bare() {
		// A server's repository as `skillgit init --bare` makes it: a push fills it.
		return fmt.Errorf("%s: %w: %s; the repository is empty until the first push of a skill repository fills it (`skillgit push` from a repository made with `skillgit init`)",
			repoLabel(g), ErrNotInitialized, found)
	}
	if len(remote) == 0 {
		return fmt.Errorf("%s: %w: %s; run `skillgit init` to set one up", repoLabel(g), ErrNotInitialized, found)
	}
	for _, rb := range remote {
		if _, b, _ := strings.Cut(rb, "/"); slices.Contains(tried, b) {
			return fmt.Errorf("%s: %w: %s; the remote has it as %s: run `git switch %s` to check it out, then `skillgit fetch`; "+
				"if the skills are published on another branch, `git config skillgit.publishBranch NAME` names it",
				repoLabel(g), ErrNotInitialized, found, rb, b)
		}
	}
	if len(remote) > maxNamedBranches {
		remote = append(remote[:maxNamedBranches], "…")
	}
	return fmt.Errorf("%s: %w: %s; the remotes have %s: if one holds the published skills, "+
		"`git config skillgit.publishBranch NAME` and `git switch NAME` use it; `skillgit init` sets up a new publish branch",
		repoLabel(g), ErrNotInitialized, found, strings.Join(remote, ", "))
}

// remoteBranches lists the remote-tracking branches as REMOTE/BRANCH, without candidates and
// the remotes' HEAD.
func remoteBranches(g *gitstore.Repo) []string {
	refs, err := g.Refs().List("refs/remotes/")
	if err != nil {
		return nil
	}
	var out []string
	for _, ref := range refs {
		name := strings.TrimPrefix(ref.Name, "refs/remotes/")
		_, b, ok := strings.Cut(name, "/")
		if !ok || b == "HEAD" || strings.HasPrefix(b, "candidate/") {
			continue
		}
		out = append(out, name)
	}
	return out
}
