package gitstore

import (
	"fmt"
	"strings"
)

// HeadBranch returns the full name of the branch HEAD points at
// ("refs/heads/main"), even when that branch has no commit yet.
func (r *Refs) HeadBranch() (string, error) {
	target, err := r.headTarget()
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(target, "refs/heads/") {
		return "", fmt.Errorf("HEAD points at %s, which is not a branch; switch to a branch with `git switch`", target)
	}
	return target, nil
}

// headTarget returns the ref HEAD points at.
func (r *Refs) headTarget() (string, error) {
	v, found, err := r.readRef("HEAD")
	switch {
	case err != nil:
		return "", err
	case !found:
		return "", fmt.Errorf("HEAD: %w; the repository is incomplete: run `git symbolic-ref HEAD refs/heads/main`", ErrRefNotFound)
	case v.target == "":
		return "", fmt.Errorf("HEAD is detached at %s; switch to a branch with `git switch`", v.hash)
	}
	return v.target, nil
}
