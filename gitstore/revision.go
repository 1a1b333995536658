package gitstore

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// ResolveRevision returns the commit a revision names: a full object id,
// HEAD, a branch, tag or remote-tracking name (looked up in git's order),
// a full ref name, an abbreviated id, or an expression such as main~2.
// Annotated tags are peeled to what they point at.
func (r *Refs) ResolveRevision(rev string) (Hash, error) {
	if rev == "" {
		return ZeroHash, fmt.Errorf("revision is empty: %w", ErrRefNotFound)
	}
	if h, ok := parseHex(rev); ok && (*Objects)(r).hasObject(h) {
		return (*Objects)(r).peel(h)
	}
	for _, name := range refCandidates(rev) {
		h, err := r.Get(name)
		if err == nil {
			return (*Objects)(r).peel(h)
		}
		if !errors.Is(err, ErrRefNotFound) {
			return ZeroHash, err
		}
	}
	return r.resolveExpression(rev)
}

// refCandidates lists the refs a short name may mean, in git's order.
func refCandidates(rev string) []string {
	if rev == "HEAD" {
		return []string{"HEAD"}
	}
	var out []string
	for _, pattern := range []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"} {
		if name := fmt.Sprintf(pattern, rev); CheckRefName(name) == nil {
			out = append(out, name)
		}
	}
	return out
}

// resolveExpression leaves abbreviated ids and ~ and ^ expressions to
// go-git, which takes the repository's locks in a fixed order.
func (r *Refs) resolveExpression(rev string) (h Hash, err error) {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	r.objMu.Lock()
	defer r.objMu.Unlock()
	defer func() {
		// The revision parser is not hardened against every input;
		// a bad revision must be an error, never a crash.
		if p := recover(); p != nil {
			h, err = ZeroHash, fmt.Errorf("revision %q: cannot be parsed: %w", rev, ErrRefNotFound)
		}
	}()
	res, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return ZeroHash, fmt.Errorf("revision %q: %w (%v); use a branch name, a full ref or a commit id", rev, ErrRefNotFound, err)
	}
	return *res, nil
}
