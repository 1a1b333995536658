package agentsync

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5"
)

// The cached clone of a skill repository named by URL is partial: it holds the commits of
// every branch, and of their trees and files only what the syncs of the projects that use it
// read (see readPlan): a project that selects 5 skills of 100,000 fetches those 5. Each sync
// fetches the branches, then what it reads and the clone lacks. When a sync reads the
// ledger's history (a trust, or a lock that moves), the clone holds every tree from then on.
// A server that refuses filters sends everything, which the sync notes; so does a server that
// refuses to send single objects, after which the clone is fetched whole. SSH URLs, and
// machines without git, are fetched whole by go-git.

// partialOption is the git config value (skillgit.partial) of a cached clone that says what
// it holds of the commits it fetched, beside what the syncs read: filterExact, the commits;
// filterTrees, the commits and their trees. Unset, the clone holds everything: made whole,
// or before clones were partial.
const partialOption = "partial"

// cacheLevel is the skillgit.partial of the cached clone repo; empty when it holds everything.
func cacheLevel(repo *git.Repository) string {
	cfg, err := repo.Config()
	if err != nil {
		return ""
	}
	return cfg.Raw.Section(remoteHeadSection).Option(partialOption)
}

// setCacheLevel records level as the skillgit.partial of repo; empty removes it.
func setCacheLevel(repo *git.Repository, level string) error {
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	s := cfg.Raw.Section(remoteHeadSection)
	if s.Option(partialOption) == level && (level != "" || !s.HasOption(partialOption)) {
		return nil
	}
	if level == "" {
		s.RemoveOption(partialOption)
	} else {
		s.SetOption(partialOption, level)
	}
	return repo.SetConfig(cfg)
}

// fetchBranchesPartial fetches the branches into the cached clone repo as its level says:
// with its filter, or with every tree when plan reads the history and the clone holds only
// commits, which then fetches again what the clone holds. A new clone starts with commits
// only. A server that ignores the filter sends everything: a clone fetched from scratch is
// then whole.
func (g *cacheGit) fetchBranchesPartial(ctx context.Context, repo *git.Repository, plan *readPlan, created bool) error {
	level := cacheLevel(repo)
	if created {
		level = filterExact
	}
	want := level
	if level == filterExact && plan.history() {
		want = filterTrees
	}
	again := created || want != level
	if err := g.fetchBranches(ctx, want, again); err != nil {
		return err
	}
	if g.refused && again {
		want = ""
	}
	return setCacheLevel(repo, want)
}

// fill fetches what plan reads into the partial cached clone repo. When the server does not
// send it, the clone is fetched whole instead, and the note says so.
func (g *cacheGit) fill(ctx context.Context, repo *git.Repository, plan *readPlan) (string, error) {
	if plan == nil || cacheLevel(repo) == "" {
		return "", nil
	}
	err := g.prefetch(ctx, plan)
	if err == nil {
		return "", nil
	}
	if werr := g.fetchBranches(ctx, "", true); werr != nil {
		return "", err
	}
	return fmt.Sprintf("%s: the server did not send the objects the sync reads (%v), so the whole repository was fetched", g.url, err), setCacheLevel(repo, "")
}

// refusedNote is the note of a sync whose server ignored a filter.
func (g *cacheGit) refusedNote() string {
	if g == nil || !g.refused {
		return ""
	}
	return g.url + ": the server does not allow partial fetch (git's uploadpack.allowFilter is off), so all of the repository was fetched, not only the skills this project selects"
}

// checkOffline makes sure the cached clone repo in dir of url holds what plan reads, since
// --offline fetches nothing: a partial clone holds only what earlier syncs read.
func checkOffline(repo *git.Repository, dir, url string, plan *readPlan) error {
	level := cacheLevel(repo)
	if plan == nil || level == "" {
		return nil
	}
	g := &cacheGit{dir: dir, url: url, offline: true}
	if level == filterExact && plan.history() {
		return g.offlineMissing("the history of the publish branch")
	}
	return g.prefetch(context.Background(), plan)
}

// offlineMissing is the error of an --offline sync that reads what the clone lacks.
func (g *cacheGit) offlineMissing(what string) error {
	return fmt.Errorf("%s: --offline, and the cached copy %s holds only what earlier syncs read, not %s, which this one reads; sync once without --offline",
		g.url, g.dir, what)
}
