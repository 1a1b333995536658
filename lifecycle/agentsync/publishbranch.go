package agentsync

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// remoteHeadSection and remoteHeadOption name the git config value of a cached clone that
// records the branch the skill repository's HEAD named at the last fetch; unset when it named
// none. The clone's own HEAD is not enough: a new clone's HEAD names a default branch before
// any fetch, which the repository may have for another use.
const (
	remoteHeadSection = "skillgit"
	remoteHeadOption  = "remoteHead"
)

// recordRemoteHead records branch (a short name, or empty for none) as the branch the skill
// repository's HEAD names; the config file is written only when that changes.
func recordRemoteHead(repo *git.Repository, branch string) error {
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	s := cfg.Raw.Section(remoteHeadSection)
	switch {
	case s.Option(remoteHeadOption) == branch && (branch != "" || !s.HasOption(remoteHeadOption)):
		return nil
	case branch == "":
		s.RemoveOption(remoteHeadOption)
	default:
		s.SetOption(remoteHeadOption, branch)
	}
	return repo.SetConfig(cfg)
}

// recordedRemoteHead is the branch the skill repository's HEAD named when the cached clone in
// dir was last fetched; empty when it named none, or the clone predates the record.
func recordedRemoteHead(dir string) string {
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return ""
	}
	cfg, err := repo.Config()
	if err != nil {
		return ""
	}
	return cfg.Raw.Section(remoteHeadSection).Option(remoteHeadOption)
}

// branchChoice is the publish branch a sync reads in the skill repository a sync file names:
// what named it, said for messages, and what to do when the repository has no such branch.
type branchChoice struct {
	name, from, fix string
}

// namedBranch is the publish branch sf, in the project at project, names for its skill
// repository: its branch: key, else the branch the project's lock records for that
// repository; empty when neither names one.
func namedBranch(sf *SyncFile, project string) branchChoice {
	if sf.Branch != "" {
		return branchChoice{name: sf.Branch, from: "named by branch: in " + SyncFileName, fix: "correct branch: in " + SyncFileName}
	}
	l, found, err := ReadLock(filepath.Join(project, LockFileName))
	if err == nil && found && l.Branch != "" && SameRepository(l.Repository, sf.Repository) {
		return branchChoice{name: l.Branch, from: "recorded in " + LockFileName,
			fix: "name the publish branch in " + SyncFileName + " (branch: NAME) and run `skillgit sync --update`"}
	}
	return branchChoice{}
}

// headBranch is the publish branch of the cached clone in dir when nothing names one: the
// branch the repository's HEAD named at the last fetch; when HEAD named none (a server made
// with a plain `git init --bare`), the one branch whose configuration names itself, and none
// when there are rivals. Main is never tried first: a branch anyone may push must not stand in
// for the publish branch.
func headBranch(dir string) (branchChoice, error) {
	fix := "name the publish branch in " + SyncFileName + " (branch: NAME)"
	if head := recordedRemoteHead(dir); head != "" {
		return branchChoice{name: head, from: "named by the skill repository's HEAD", fix: fix}, nil
	}
	g, err := gitstore.Open(dir)
	if err != nil {
		return branchChoice{}, err
	}
	defer g.Close()
	named, err := lifecycle.SelfNamedBranches(g)
	if err != nil {
		return branchChoice{}, err
	}
	if len(named) == 1 {
		return branchChoice{name: named[0], from: "the only branch whose " + policy.ConfigFile + " names itself", fix: fix}, nil
	}
	rivals := ""
	if len(named) > 1 {
		rivals = fmt.Sprintf(", and branches %s each claim to be the publish branch", strings.Join(named, ", "))
	}
	return branchChoice{}, fmt.Errorf("the skill repository's HEAD names no branch%s; add branch: NAME to %s, naming its publish branch",
		rivals, SyncFileName)
}

// open opens the skill repository at dir on the chosen branch.
func (b branchChoice) open(dir string) (*lifecycle.Repo, error) {
	lr, err := lifecycle.OpenBranch(dir, b.name)
	if err != nil {
		return nil, fmt.Errorf("publish branch %s (%s): %w; %s", b.name, b.from, err, b.fix)
	}
	return lr, nil
}

// rivalMainWarning warns, for the skill repository lr read from url on branch b, when the
// repository's main branch, which is not b, holds a skillgit configuration that disagrees on
// the publish branch: someone may have pushed it to pass for one. Empty when there is none.
func rivalMainWarning(lr *lifecycle.Repo, b branchChoice, url string) string {
	const main = "refs/heads/main"
	if lr.Branch() == main {
		return ""
	}
	tip, err := lr.Git().Refs().Get(main)
	if err != nil {
		return ""
	}
	named, ok, err := lifecycle.ConfigNameAt(lr.Git(), tip)
	if err != nil || !ok {
		return ""
	}
	if named == b.name {
		return ""
	}
	return fmt.Sprintf("%s: branch main holds a %s naming %s the publish branch, but the publish branch is %s (%s); installing from %s. If main is the publish branch, say so in %s (branch: main); else ask the repository's owners to remove main",
		url, policy.ConfigFile, named, b.name, b.from, b.name, SyncFileName)
}

// publishBranch is the short name of the publish branch r was opened on.
func (r *repo) publishBranch() string { return strings.TrimPrefix(r.Branch(), "refs/heads/") }
