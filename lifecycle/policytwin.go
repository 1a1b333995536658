package lifecycle

import (
	"cmp"
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
)

// checkOpenPolicy refuses a policy proposal whose policy files an open policy candidate
// already holds exactly: a second candidate would need approvals of its own for one change.
func checkOpenPolicy(r *Repo, tree gitstore.Hash) error {
	chains, err := r.book().OpenOfSkill(PolicySkill)
	for _, ch := range chains {
		if same, serr := samePolicy(r, ch.Last().C.TreeHash, tree); serr != nil || same {
			return cmp.Or(serr, fmt.Errorf("%s: %w: the open policy candidate %s holds exactly these policy files; approve it, or see it with `skillgit review %s`",
				PolicySkill, ErrAlreadyProposed, ch.ID, ch.ID))
		}
	}
	return err
}

// samePolicy reports whether two root trees hold the same policy files.
func samePolicy(r *Repo, a, b gitstore.Hash) (bool, error) {
	for _, p := range r.cfg.PolicyPaths() {
		ea, err := r.book().EntryAt(a, p)
		eb, errb := r.book().EntryAt(b, p)
		if err != nil || errb != nil || ea != eb {
			return false, cmp.Or(err, errb)
		}
	}
	return true, nil
}
