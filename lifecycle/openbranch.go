package lifecycle

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// OpenBranch opens the skillgit repository at or above dir with branch (a short name such as
// release) as its publish branch, whatever skillgit.publishBranch, main or HEAD would pick.
// It is for a copy whose publish branch is known from elsewhere, such as the cached clone of a
// repository an application project names: there, trying main first could read a branch
// someone pushed to look like a publish branch.
func OpenBranch(dir, branch string) (*Repo, error) {
	if !policy.ValidBranchName(branch) {
		return nil, fmt.Errorf("%q is not a valid branch name; name the publish branch, such as main or release", branch)
	}
	return openWith(dir, func(g *gitstore.Repo) (*Repo, error) {
		ref := "refs/heads/" + branch
		tip, err := g.Refs().Get(ref)
		if errors.Is(err, gitstore.ErrRefNotFound) {
			return nil, fmt.Errorf("%s: %w: it has no branch %s", repoLabel(g), ErrNotInitialized, branch)
		}
		if err != nil {
			return nil, err
		}
		return loadAt(g, ref, tip)
	})
}

// ConfigNameAt is the publish branch the .skillgit.yaml at the root of commit h of g names (see
// policy.NamedPublishBranch); false when the commit holds none.
func ConfigNameAt(g *gitstore.Repo, h gitstore.Hash) (string, bool, error) {
	c, err := g.Objects().Commit(h)
	if err != nil {
		return "", false, err
	}
	e, ok, err := g.Objects().EntryAt(c.TreeHash, policy.ConfigFile)
	if err != nil || !ok {
		return "", false, err
	}
	return ConfigNameOf(g, e.Hash), true, nil
}

// ConfigNameOf is the publish branch the configuration blob h names; an entry that is no
// readable blob of a configuration's size (a link, a folder) names the default branch.
func ConfigNameOf(g *gitstore.Repo, h gitstore.Hash) string {
	data, err := g.Objects().ReadBlob(h, policy.MaxConfigSize)
	if err != nil {
		data = nil
	}
	return policy.NamedPublishBranch(data)
}

// SelfNamedBranches lists the branches of g whose .skillgit.yaml names that very branch as
// the publish branch: the ones that could each be a publish branch. Candidates and canary,
// which hold the publish branch's configuration, are never among them.
func SelfNamedBranches(g *gitstore.Repo) ([]string, error) {
	refs, err := g.Refs().List("refs/heads/")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ref := range refs {
		name, ok, err := ConfigNameAt(g, ref.Hash)
		if err != nil {
			continue // not a commit, or unreadable: no publish branch either way
		}
		if ok && name == gitstore.ShortRef(ref.Name) {
			out = append(out, name)
		}
	}
	return out, nil
}
