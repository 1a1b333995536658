package gitstore

import (
	"fmt"
	"os"

	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/procowner"
)

// RecordOwner records o as the owner of the existing lock file at lockPath, in the
// record skillgit writes for each lock it takes: for a tool that takes a lock on skillgit's
// behalf, and for tests that leave a lock as a process that died would.
func (r *Locks) RecordOwner(lockPath string, o procowner.Owner) error {
	fi, err := os.Lstat(lockPath)
	if err != nil {
		return err
	}
	id, ok := statID(fi)
	if !ok {
		return fmt.Errorf("%s: this system does not tell the file's identity", lockPath)
	}
	rec := fmt.Appendf(o.Marshal(), "lock %s\nfile %s\n", lockPath, id)
	return atomicfile.Write(r.ownerPath(lockPath), rec, atomicfile.Options{})
}
