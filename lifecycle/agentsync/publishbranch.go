package agentsync

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"

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
// repository's HEAD names.
func recordRemoteHead(repo *git.Repository, branch string) error {
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	s := cfg.Raw.Section(remoteHeadSection)
	if branch == "" {
		s.RemoveOption(remoteHeadOption)
	} else {
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
// what named it, and what to do when the repository has no such branch.
type branchChoice struct {
	name, from, fix string
}

// namedBranch is the publish branch sf, in the project at project, names for its skill
// repository: its branch: key, else the branch the project's lock records for that
// repository; empty when neither names one.
func namedBranch(sf *SyncFile, project string) branchChoice {
	if sf.Branch != "" {
		return branchChoice{name: sf.Branch, from: SyncFileName + " (branch:)", fix: "correct branch: in " + SyncFileName}
	}
	l, found, err := ReadLock(filepath.Join(project, LockFileName))
	if err == nil && found && l.Branch != "" && SameRepository(l.Repository, sf.Repository) {
		return branchChoice{name: l.Branch, from: LockFileName,
			fix: "name the publish branch in " + SyncFileName + " (branch: NAME) and run `skillgit sync --update`"}
	}
	return branchChoice{}
}

// headBranch is the publish branch of the cached clone in dir when nothing names one:
// the branch the repository's HEAD named at the last fetch. Main is never tried first: a
// branch anyone may push must not stand in for the publish branch.
func headBranch(dir string) (branchChoice, error) {
	head := recordedRemoteHead(dir)
	if head == "" {
		return branchChoice{}, fmt.Errorf("the skill repository's HEAD names no branch, and neither %s (branch:) nor %s names its publish branch; add branch: NAME to %s, or sync without --offline if the copy is from an older skillgit",
			SyncFileName, LockFileName, SyncFileName)
	}
	return branchChoice{name: head, from: "the skill repository's HEAD", fix: "name the publish branch in " + SyncFileName + " (branch: NAME)"}, nil
}

// open opens the skill repository at dir on the chosen branch.
func (b branchChoice) open(dir string) (*lifecycle.Repo, error) {
	lr, err := lifecycle.OpenBranch(dir, b.name)
	if err != nil {
		return nil, fmt.Errorf("publish branch %s, as %s names it: %w; %s", b.name, b.from, err, b.fix)
	}
	return lr, nil
}

// rivalMainWarning warns, for the skill repository lr read from url on branch b, when the
// repository's main branch, which is not b, holds a skillgit configuration that disagrees on
// the publish branch: someone may have pushed it to pass for one. Empty when there is none.
func rivalMainWarning(lr *lifecycle.Repo, b branchChoice, url string) string {
	const main = "refs/heads/main"
	if lr.Branch == main {
		return ""
	}
	tip, err := lr.Git.Ref(main)
	if err != nil {
		return ""
	}
	c, err := lr.Git.Commit(tip)
	if err != nil {
		return ""
	}
	e, ok, err := lr.Git.EntryAt(c.TreeHash, policy.ConfigFile)
	if err != nil || !ok {
		return ""
	}
	data, err := lr.Git.ReadBlob(e.Hash, policy.MaxConfigSize)
	if err != nil {
		return ""
	}
	named := policy.NamedPublishBranch(data)
	if named == b.name {
		return ""
	}
	return fmt.Sprintf("%s: branch main holds a %s naming %s the publish branch, but %s names %s; installing from %s. If main is the publish branch, say so in %s (branch: main); else ask the repository's owners to remove main",
		url, policy.ConfigFile, named, b.from, b.name, b.name, SyncFileName)
}

// publishBranch is the short name of the publish branch r was opened on.
func (r *repo) publishBranch() string { return strings.TrimPrefix(r.Branch, "refs/heads/") }
