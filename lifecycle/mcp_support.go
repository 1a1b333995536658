package lifecycle

import (
	"fmt"
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing"
)

// CandidateFS returns the files of a candidate's skill folder as its tip has them, as an
// fs.FS rooted at the folder, so that a caller can change one file and revise with the rest.
func (r *Repo) CandidateFS(c *Candidate) (fs.FS, error) {
	tip, err := r.git.Objects().Commit(plumbing.NewHash(c.Tip))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	h, err := r.FolderAt(tip.TreeHash, c.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.ID, c.Path, err)
	}
	if h.IsZero() {
		return nil, fmt.Errorf("%s: the candidate has no folder %s; it proposes deleting %s", c.ID, c.Path, c.Skill)
	}
	return r.git.Objects().TreeFS(h), nil
}
