package gitstore

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"
)

// helperEnv names the variable that turns the test binary into a helper
// process: its value is "cas <repo> <ref> <count> <id>" or
// "pre-receive <report file>".
const helperEnv = "GITSTORE_TEST_HELPER"

func runHelper() int {
	f := strings.Fields(os.Getenv(helperEnv))
	if len(f) == 2 && f[0] == "pre-receive" {
		return runPreReceive(f[1])
	}
	if len(f) != 5 || f[0] != "cas" {
		fmt.Fprintln(os.Stderr, "helper: bad arguments", f)
		return 2
	}
	n, err := strconv.Atoi(f[3])
	if err == nil {
		err = casIncrements(f[1], f[2], n, f[4])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	return 0
}

func casIncrements(path, ref string, n int, id string) error {
	r, err := Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	for i := 0; i < n; i++ {
		if err := casIncrement(r, ref, id); err != nil {
			return err
		}
	}
	return nil
}

// casIncrement adds one commit to ref whose message is the previous
// commit's number plus one, retrying until its compare-and-swap wins. A
// lock held past the timeout by a starved process (ErrLocked) is as safe
// to retry as a lost race: nothing was written.
func casIncrement(r *Repo, ref, id string) error {
	for {
		cur, err := r.Refs().Get(ref)
		if err != nil {
			return err
		}
		c, err := r.Objects().Commit(cur)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.Fields(c.Message)[0])
		if err != nil {
			return err
		}
		sig := object.Signature{Name: "Counter " + id, Email: "counter@example.com"}
		next, err := r.Writes().WriteCommit(CommitSpec{Tree: c.TreeHash, Parents: []Hash{cur},
			Author: sig, Committer: sig, Message: fmt.Sprintf("%d by %s\n", n+1, id)})
		if err != nil {
			return err
		}
		err = r.Updates().Update(ref, next, cur, "increment")
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrRefChanged) && !errors.Is(err, ErrLocked) {
			return err
		}
	}
}
