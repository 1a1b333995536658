package gitstore

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
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

// SetHeadBranch points HEAD at branch name, given in full
// ("refs/heads/main") or short ("main"). The branch need not exist yet.
func (r *Refs) SetHeadBranch(name string) error {
	if !strings.HasPrefix(name, "refs/") {
		name = "refs/heads/" + name
	}
	if err := CheckRefName(name); err != nil {
		return err
	}
	if !strings.HasPrefix(name, "refs/heads/") {
		return fmt.Errorf("%s: HEAD can only point at a branch (refs/heads/...)", name)
	}
	if r.mem {
		r.refMu.Lock()
		defer r.refMu.Unlock()
		return r.storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.ReferenceName(name)))
	}
	lock, err := (*Locks)(r).acquireLock(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return fmt.Errorf("HEAD: %w", err)
	}
	defer lock.release()
	if err := lock.commit([]byte("ref: " + name + "\n")); err != nil {
		return fmt.Errorf("HEAD: writing: %w", err)
	}
	return nil
}
