package lifecycle

import (
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policydiff"
)

// Log returns the audit trail as the ledger reads it (see ledger.Book.Log), with what each
// step changed in the policy.
func (r *Repo) Log(name string) ([]LogEntry, error) {
	bk := r.book()
	d, tops := policydiff.New(r.git, bk), &policydiff.TopEntries{}
	return bk.Trail().Log(name, func(e *ledger.LogEntry, c *object.Commit) {
		e.Policy = d.Commit(c, tops)
	})
}
