package ledger

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// A partial clone, such as the cached clone an application project syncs from, holds only
// the objects it fetched. The ledger never takes an object it cannot read for "no change":
// what a commit changed is then unknown, and a change hidden that way could let a verified
// install trace a version to the wrong publish. Such a read is an error that names the commit
// and says how to get the object.

// missingHint says what to do about an object of the history that the repository lacks.
const missingHint = "the repository lacks objects of this commit, so what it changed cannot be read " +
	"(a partial clone holds only what it fetched): fetch them (`git fetch --refetch`), or, in an application project, " +
	"run `skillgit sync --update`, which fetches what the ledger reads"

// unreadable is the error of reading what commit h changed, which failed with err: an object
// that cannot be read names the commit and what to do; any other error is kept as it is.
func unreadable(h gitstore.Hash, err error) error {
	if !gitstore.IsObjectError(err) || strings.Contains(err.Error(), missingHint) {
		return err
	}
	return fmt.Errorf("commit %s: %w; %s", shortHash(h), err, missingHint)
}
