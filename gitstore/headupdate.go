package gitstore

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// SetHeadBranch points HEAD at branch name, given in full
// ("refs/heads/main") or short ("main"). The branch need not exist yet.
func (r *Updates) SetHeadBranch(name string) error {
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
