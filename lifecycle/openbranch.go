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
		tip, err := g.Ref(ref)
		if errors.Is(err, gitstore.ErrRefNotFound) {
			return nil, fmt.Errorf("%s: %w: it has no branch %s", repoLabel(g), ErrNotInitialized, branch)
		}
		if err != nil {
			return nil, err
		}
		return loadAt(g, ref, tip)
	})
}
