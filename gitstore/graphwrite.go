package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// AutoGraphThreshold is how many commits on a branch's first-parent history may lie outside
// git's commit-graph before MaybeExtendCommitGraph adds them: one publish in this many pays
// for writing a small layer, the others for a lookup.
const AutoGraphThreshold = 64

// graphWriteTimeout bounds one run of git commit-graph write.
const graphWriteTimeout = 2 * time.Minute

// maxNewFilters bounds the changed-path Bloom filters one write computes, so that the first
// write in a long history without a graph stays short; later writes add the rest.
const maxNewFilters = 512

// MaybeExtendCommitGraph adds the commits reachable from tip to git's commit-graph when at
// least threshold commits of tip's first-parent history are outside it, and reports whether
// it wrote. It runs `git commit-graph write --split --changed-paths` for them, which appends
// a layer to the graph's chain and merges small layers as git does, with the changed-path
// Bloom filters that make `git log -- PATH` fast. Nothing is written when git is not on
// PATH, for a repository in memory, a shallow clone, one whose config sets core.commitGraph
// or gc.writeCommitGraph to false, or a threshold of 0 or less.
func (r *History) MaybeExtendCommitGraph(tip Hash, threshold int) (bool, error) {
	if threshold <= 0 || tip.IsZero() || !r.graphUsable() {
		return false, nil
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return false, nil
	}
	n, err := r.commitsOutsideGraph(tip, threshold)
	if err != nil || n < threshold || r.graphWritesOff() {
		return false, err
	}
	wrote, err := r.writeCommitGraph(git, tip)
	if wrote {
		r.reloadGraph()
	}
	return wrote, err
}

// graphWritesOff reports whether the repository's config turns commit-graphs off, or their
// writing by housekeeping.
func (r *History) graphWritesOff() bool {
	cfg, err := ReadConfigFile(filepath.Join(r.commonDir, "config"))
	if err != nil {
		return false
	}
	for _, k := range [][2]string{{"core", "commitgraph"}, {"gc", "writecommitgraph"}} {
		if v, ok := configValue(cfg, k[0], "", k[1]); ok {
			if b, known := parseGitBool(v); known && !b {
				return true
			}
		}
	}
	return false
}

// commitsOutsideGraph counts the commits of tip's first-parent history that the graph does
// not hold, up to limit.
func (r *History) commitsOutsideGraph(tip Hash, limit int) (int, error) {
	g := r.graph()
	n := 0
	for h := tip; n < limit; n++ {
		if g != nil {
			if _, ok := g.Lookup(h); ok {
				return n, nil
			}
		}
		c, err := (*Objects)(r).Commit(h)
		if err != nil {
			return 0, err
		}
		if len(c.ParentHashes) == 0 {
			return n + 1, nil
		}
		h = c.ParentHashes[0]
	}
	return n, nil
}

// writeCommitGraph runs git commit-graph write for the commits reachable from tip, in this
// repository whatever the environment says. When another process holds the graph's lock, as
// a concurrent publish or a git gc may, nothing is written and that is no error: the next
// command past the threshold adds the commits.
func (r *History) writeCommitGraph(git string, tip Hash) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), graphWriteTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, "--git-dir="+r.commonDir, "commit-graph", "write",
		"--stdin-commits", "--split", "--changed-paths", fmt.Sprintf("--max-new-filters=%d", maxNewFilters), "--no-progress")
	cmd.Stdin = strings.NewReader(tip.String() + "\n")
	cmd.Env = append(IsolatedEnv(os.Environ()), "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	msg := strings.TrimSpace(stderr.String())
	switch {
	case err == nil:
		return true, nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg = fmt.Sprintf("stopped after %s", graphWriteTimeout)
	case strings.Contains(msg, ".lock': File exists"):
		return false, nil
	}
	return false, fmt.Errorf("writing the commit-graph of %s with git commit-graph write: %v: %s", r.commonDir, err, msg)
}

// IsolatedEnv is env without the variables that would point git at another repository,
// object folder or index than the one named on its command line.
func IsolatedEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_NAMESPACE":
			continue
		}
		out = append(out, kv)
	}
	return out
}
