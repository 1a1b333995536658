// Package lifecycle runs the life of a skill in git: the repository's configuration and policy,
// initialisation, and reading what is published. It builds on gitstore, catalog and audit.
package lifecycle

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/published"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// ErrNotInitialized reports a git repository that skillgit has not adopted yet.
var ErrNotInitialized = errors.New("not a skillgit repository")

// ErrNotFound reports a skill that does not exist on the branch that was read.
var ErrNotFound = ledger.ErrNotFound

// Repo is a skillgit repository: the git store, its publish branch and its configuration.
// Its fields are private so that only lifecycle moves them, as Reload does; other packages
// read them through the accessors below.
type Repo struct {
	git *gitstore.Repo
	cfg *policy.Config
	// branch is the full name of the publish branch, e.g. refs/heads/main.
	branch string
	// tip is the publish branch's commit when the repository was opened or last reloaded.
	tip gitstore.Hash
	// tree is tip's root tree.
	tree gitstore.Hash
	// dir is the folder skillgit runs in, absolute; relative paths given by the user start there.
	dir string
	// pub is what the publish branch publishes at tip, with its caches (see Published).
	pub *published.Channel
	// signersMu guards signers, the allowed-signers file of the publish branch, read once.
	signersMu sync.Mutex
	signers   *ledger.SignerFile
	// ledgerMu guards led, the reading of the history, made for the skills folder of the
	// configuration it was made under.
	ledgerMu sync.Mutex
	led      *ledger.Ledger
	bk       *ledger.Book
	// readOnly keeps the caches from being written, for commands that only read.
	readOnly bool
	// openMu guards inBatch, set while Batch runs, and open, the batch's index of the open
	// candidates.
	openMu  sync.Mutex
	inBatch bool
	open    *openIndex
	// held is what the held moves of the checked-out branch change in its files (see Hold);
	// nil when they change none.
	held *heldFiles
}

// Open opens the skillgit repository at or above dir and reads its configuration from the
// publish branch.
func Open(dir string) (*Repo, error) {
	return openWith(dir, load)
}

// openWith opens the git repository at or above dir and reads it as a skillgit repository
// with read.
func openWith(dir string, read func(*gitstore.Repo) (*Repo, error)) (*Repo, error) {
	g, err := gitstore.Open(dir)
	if err != nil {
		return nil, err
	}
	r, err := read(g)
	if err != nil {
		g.Close()
		return nil, err
	}
	r.dir, err = filepath.Abs(dir)
	if err != nil {
		g.Close()
		return nil, err
	}
	return r, nil
}

// Git is the git store the repository is read from and written to.
func (r *Repo) Git() *gitstore.Repo { return r.git }

// Config is the configuration the publish branch holds at Tip, or the one the repository was
// opened under (see RepoAt).
func (r *Repo) Config() *policy.Config { return r.cfg }

// Branch is the full name of the publish branch, e.g. refs/heads/main.
func (r *Repo) Branch() string { return r.branch }

// Tip is the publish branch's commit when the repository was opened or last reloaded.
func (r *Repo) Tip() gitstore.Hash { return r.tip }

// Tree is Tip's root tree.
func (r *Repo) Tree() gitstore.Hash { return r.tree }

// Dir is the folder skillgit runs in, absolute; relative paths given by the user start there.
// Empty for a repository made by RepoAt without one.
func (r *Repo) Dir() string { return r.dir }

// Close releases the repository's open files.
func (r *Repo) Close() error { return r.git.Close() }

func load(g *gitstore.Repo) (*Repo, error) {
	branch, tip, err := findPublishBranch(g)
	if err != nil {
		return nil, err
	}
	return loadAt(g, branch, tip)
}

// loadAt reads g as a skillgit repository whose publish branch, branch, is at tip.
func loadAt(g *gitstore.Repo, branch string, tip gitstore.Hash) (*Repo, error) {
	c, err := g.Objects().Commit(tip)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", gitstore.ShortRef(branch), err)
	}
	r := &Repo{git: g, branch: branch, tip: tip, tree: c.TreeHash}
	cfg, err := r.readConfig(r.tree)
	if err != nil {
		return nil, err
	}
	r.cfg = cfg
	if want := "refs/heads/" + cfg.PublishBranch; want != branch {
		return nil, fmt.Errorf("%s: %s names publish_branch %q; run skillgit on that branch or correct the file", gitstore.ShortRef(branch), policy.ConfigFile, cfg.PublishBranch)
	}
	return r, nil
}

// Reload reads the publish branch's tip and configuration again.
func (r *Repo) Reload() error {
	fresh, err := load(r.git)
	if err != nil {
		return err
	}
	r.cfg, r.tip, r.tree = fresh.cfg, fresh.tip, fresh.tree
	return nil
}

// findPublishBranch picks the publish branch: the git config value skillgit.publishBranch, else
// main, else the branch HEAD points to.
func findPublishBranch(g *gitstore.Repo) (string, gitstore.Hash, error) {
	var tried []string
	for _, b := range PublishBranchChoices(g) {
		h, err := g.Refs().Get(b)
		if err == nil {
			return b, h, nil
		}
		if !errors.Is(err, gitstore.ErrRefNotFound) {
			return "", gitstore.ZeroHash, err
		}
		tried = append(tried, gitstore.ShortRef(b))
	}
	return "", gitstore.ZeroHash, noPublishBranch(g, tried)
}

// PublishBranchChoices lists the branches that may be g's publish branch, the first one
// there is being it: the branch git config skillgit.publishBranch names, main, the branch
// HEAD names.
func PublishBranchChoices(g *gitstore.Repo) []string {
	var out []string
	if cfg, err := g.Git().Config(); err == nil {
		if b := cfg.Raw.Section("skillgit").Option("publishBranch"); b != "" {
			out = append(out, "refs/heads/"+b)
		}
	}
	out = append(out, "refs/heads/main")
	if head, err := g.Refs().HeadBranch(); err == nil && head != "refs/heads/main" {
		out = append(out, head)
	}
	return out
}

func (r *Repo) readConfig(tree gitstore.Hash) (*policy.Config, error) {
	data, ok, err := r.FileAt(tree, policy.ConfigFile, policy.MaxConfigSize, gitstore.ShortRef(r.branch))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: %w: the publish branch has no %s; run `skillgit init` to adopt this repository",
			gitstore.ShortRef(r.branch), ErrNotInitialized, policy.ConfigFile)
	}
	return policy.ParseConfig(data)
}

func repoLabel(g *gitstore.Repo) string {
	if d := g.WorktreeDir(); d != "" {
		return d
	}
	if d := g.GitDir(); d != "" {
		return d
	}
	return "repository"
}

// ErrRefused reports an action that policy or the audit does not allow.
var ErrRefused = ledger.ErrRefused

// ErrConflict reports a change that collides with what is published.
var ErrConflict = skilltree.ErrConflict

// ledger is the verified reading of the repository's history under its configuration.
func (r *Repo) ledger() *ledger.Ledger {
	r.ledgerMu.Lock()
	defer r.ledgerMu.Unlock()
	if r.led == nil || r.led.SkillsDir() != r.cfg.SkillsDir {
		r.led = ledger.New(ledger.StoreOf(r.git), r.cfg.SkillsDir)
		if d := r.git.CommonDir(); d != "" {
			r.led.UseCache(filepath.Join(d, "skillgit", "cache"), !r.readOnly)
		}
	}
	return r.led
}

// ReadOnly makes the repository write nothing of its own, not even a cache: for completion,
// which must leave the repository as it found it.
func (r *Repo) ReadOnly() { r.readOnly = true }

// Book is the ledger's reading of the repository as its publish branch stands: candidates,
// their approvals and states, the trail. It is made again when the branch or its
// configuration moved.
func (r *Repo) Book() *ledger.Book { return r.book() }

func (r *Repo) book() *ledger.Book {
	r.ledgerMu.Lock()
	bk := r.bk
	r.ledgerMu.Unlock()
	if bk != nil && bk.Tip == r.tip && bk.Tree == r.tree && bk.Config == r.cfg && bk.Branch == r.branch {
		return bk
	}
	bk = &ledger.Book{Git: ledger.ReaderOf(r.git), Config: r.cfg, Branch: r.branch, Tip: r.tip, Tree: r.tree, Ledger: r.ledger(),
		Find:       func(name string) (*catalog.Skill, error) { return r.Published().Find(name) },
		PackOwners: func() map[string]string { return r.Published().PackOwners() }}
	r.ledgerMu.Lock()
	r.bk = bk
	r.ledgerMu.Unlock()
	return bk
}
