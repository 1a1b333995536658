package agentsync

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/gitauth"
)

// A cached clone fetches only what a sync reads (see partial.go), through the git command:
// go-git speaks neither protocol v2 nor its object filters.

// Filters of a cached clone's fetches. Given with the objects to fetch, filterExact fetches
// those objects alone, filterTrees a tree with every tree below it, and filterAll a tree with
// everything below it; with the branches, filterExact fetches their commits only and
// filterTrees their commits and trees. filterAll leaves out no file a skill may hold, but as a
// filter it has git keep what it fetched among the objects the server promises, which git's
// housekeeping in a partial clone keeps; an unfiltered fetch would be dropped by it.
const (
	filterExact = "tree:0"
	filterTrees = "blob:none"
	filterAll   = "blob:limit=4g"
)

// filterRefused is what git says when the server ignores a filter and sends everything.
const filterRefused = "filtering not recognized by server"

// maxGitStderr bounds what is kept of the errors the git command writes.
const maxGitStderr = 64 << 10

// cacheGit runs the git command in the cached clone dir of url, with the credentials of
// access; its messages never show a secret.
type cacheGit struct {
	dir, url string
	access   *gitauth.Access
	// refused is set once the server ignored a filter.
	refused bool
	// offline fetches nothing: what is missing is an error.
	offline bool
}

// newCacheGit returns the runner of the git command for the cached clone dir of url, or nil
// when the command is not used for it: git is not installed, or older than minRefetch; the URL is an SSH one, which
// go-git reaches with the keys and known_hosts that gitauth reads; or a file one, a folder of
// this machine, which is read whole.
func newCacheGit(dir, url string, access *gitauth.Access) *cacheGit {
	ep, err := transport.NewEndpoint(url)
	if err != nil {
		return nil
	}
	switch ep.Protocol {
	case "http", "https", "git":
	default:
		return nil
	}
	if !gitCanRefetch() {
		return nil
	}
	return &cacheGit{dir: dir, url: url, access: access}
}

// minRefetch is the first version of git whose fetch has --refetch, which a partial clone
// needs to fetch what lies below an object it holds.
var minRefetch = [2]int{2, 36}

// gitCanRefetch reports whether git is installed, at minRefetch or later; asked once.
var gitCanRefetch = sync.OnceValue(func() bool {
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		return false
	}
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(string(out)), "git version "), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > minRefetch[0] || major == minRefetch[0] && minor >= minRefetch[1]
})

// fetchBranches fetches every branch of the skill repository onto the same names, pruning
// the ones it deleted, with filter (empty: everything). With again, the clone names nothing it
// holds to the server, which then sends every object the filter lets through, also those of
// the commits the clone has.
func (g *cacheGit) fetchBranches(ctx context.Context, filter string, again bool) error {
	args := []string{"--prune", filterFlag(filter), cacheRemote, fetchSpec}
	if again {
		args = append([]string{"--refetch"}, args...)
	}
	return g.fetch(ctx, "", args...)
}

// fetchObjects fetches the objects ids, with filter: filterExact for those objects alone,
// filterTrees for each with every tree below it, filterAll for everything below each. It fetches
// them again when the clone holds them already, to get what lies below; and nothing the clone
// holds is named to the server, which would otherwise leave out what those hold. Housekeeping
// waits for the next fetch of the branches: after --refetch, git would repack everything.
func (g *cacheGit) fetchObjects(ctx context.Context, filter string, ids []gitstore.Hash) error {
	var in strings.Builder
	for _, h := range ids {
		in.WriteString(h.String() + "\n")
	}
	return g.fetch(ctx, in.String(), "--refetch", "--no-auto-gc", "--stdin", filterFlag(filter), cacheRemote)
}

// filterFlag is the option of git fetch for filter; empty turns off the filter a partial
// clone would otherwise use.
func filterFlag(filter string) string {
	if filter == "" {
		return "--no-filter"
	}
	return "--filter=" + filter
}

// fetch runs git fetch with args, quietly and without tags. The clone's remote is a promisor
// for this command only, so that git takes what a filtered fetch leaves out as objects the
// server will give, while go-git, which knows no partial clone, can open the clone; the
// housekeeping git runs after a fetch ends before git does, never beside a read.
func (g *cacheGit) fetch(ctx context.Context, stdin string, args ...string) error {
	full := []string{"--git-dir=" + g.dir, "-c", "protocol.version=2", "-c", "remote." + cacheRemote + ".promisor=true",
		"-c", "gc.autoDetach=false", "-c", "maintenance.autoDetach=false",
		"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--recurse-submodules=no"}
	cmd := exec.CommandContext(ctx, "git", append(full, args...)...)
	cmd.Env = append(append(gitstore.IsolatedEnv(os.Environ()), "LC_ALL=C"), g.access.CommandEnv()...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stderr limitedBuffer
	stderr.limit = maxGitStderr
	cmd.Stderr = &stderr
	err := cmd.Run()
	if strings.Contains(stderr.String(), filterRefused) {
		g.refused = true
	}
	if err != nil {
		return g.fetchFailed(err, stderr.String())
	}
	return nil
}

// fetchFailed is the error of a git fetch that failed with err after writing stderr.
func (g *cacheGit) fetchFailed(err error, stderr string) error {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "warning: ") {
			lines = append(lines, l)
		}
	}
	msg := strings.Join(lines, "; ")
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("fetching the skill repository %s with git: %s; check the URL and your access to it, or pass --offline to use the copy fetched by the last sync",
		g.url, g.access.Conceal(msg))
}

// limitedBuffer keeps the first limit bytes written to it and drops the rest.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
