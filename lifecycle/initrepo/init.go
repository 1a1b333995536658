// Package initrepo creates a skillgit repository, or adopts a git repository: the
// configuration and the skills folder in one commit, then the built-in pack if asked for. It
// needs no skillgit repository to stand on, so it stands below the lifecycle's actions.
package initrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// ErrAlreadyInitialized reports an init of a repository that already has a configuration.
var ErrAlreadyInitialized = errors.New("already a skillgit repository")

// Options says how to create or adopt a repository.
type Options struct {
	Dir    string
	Bare   bool
	Branch string // publish branch; "" picks main, or the checked-out branch of an adopted repository
	// Pack, when not nil, is published right after initialisation (the built-in pack).
	Pack        fs.FS
	PackName    string
	PackVersion string
}

// Result reports what init did.
type Result struct {
	Dir     string `json:"dir"`
	Branch  string `json:"branch"`
	Adopted bool   `json:"adopted"`
	Bare    bool   `json:"bare"`
	// Empty means a bare repository left without a commit, for the first push to fill.
	Empty    bool     `json:"empty"`
	Commits  []string `json:"commits"`
	Skills   []string `json:"skills"`
	Warnings []string `json:"-"`
}

// Init creates a skillgit repository in opts.Dir, or adopts the git repository there with one
// commit that adds the configuration and the skills folder, and publishes opts.Pack if given.
// A bare repository whose publish branch has no commit yet, without opts.Pack, gets no commit:
// it is a server's repository, and the first push of a skill repository made elsewhere fills
// it, which an init commit of its own would keep out as an unrelated history.
func Init(opts Options) (*Result, error) {
	g, adopted, err := openOrInit(opts)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	branch, err := chooseBranch(g, opts.Branch, adopted)
	if err != nil {
		return nil, err
	}
	res := &Result{Dir: opts.Dir, Branch: gitstore.ShortRef(branch), Adopted: adopted, Bare: g.Bare(), Commits: []string{}}
	if d := g.WorktreeDir(); d != "" {
		res.Dir = d
	}
	in := &initializer{g: g, branch: branch, res: res}
	empty, err := in.leaveEmpty(opts)
	if err != nil {
		return nil, err
	}
	if empty {
		return res, nil
	}
	if err := in.run(opts); err != nil {
		return nil, err
	}
	return res, nil
}

func openOrInit(opts Options) (*gitstore.Repo, bool, error) {
	if _, err := os.Stat(opts.Dir); err == nil {
		g, err := gitstore.Open(opts.Dir)
		if err == nil {
			return g, true, nil
		}
		if !errors.Is(err, gitstore.ErrNotRepository) {
			return nil, false, err
		}
	}
	b := opts.Branch
	if b == "" {
		b = "main"
	}
	if !policy.ValidBranchName(b) {
		return nil, false, fmt.Errorf("%q is not a valid branch name", b)
	}
	g, err := gitstore.Init(opts.Dir, gitstore.InitOptions{Bare: opts.Bare, Branch: b})
	return g, false, err
}

// chooseBranch picks the publish branch: the one asked for, else main if it exists or the
// repository is new, else the branch HEAD points to.
func chooseBranch(g *gitstore.Repo, want string, adopted bool) (string, error) {
	if want != "" {
		if !policy.ValidBranchName(want) {
			return "", fmt.Errorf("%q is not a valid branch name", want)
		}
		return "refs/heads/" + want, nil
	}
	if !adopted {
		return g.Refs().HeadBranch()
	}
	if _, err := g.Refs().Get("refs/heads/main"); err == nil {
		return "refs/heads/main", nil
	}
	return g.Refs().HeadBranch()
}

// leaveEmpty prepares a bare repository without a commit when its publish branch has none and
// no pack is to be published: HEAD names the publish branch (unless it names a branch with
// commits), so that a clone checks it out and the hooks find it, and a publish branch other
// than main is recorded in the git config.
func (in *initializer) leaveEmpty(opts Options) (bool, error) {
	if !in.g.Bare() || opts.Pack != nil {
		return false, nil
	}
	if _, err := in.g.Refs().Get(in.branch); !errors.Is(err, gitstore.ErrRefNotFound) {
		return false, err
	}
	if _, err := in.g.Refs().Get("HEAD"); errors.Is(err, gitstore.ErrRefNotFound) {
		if err := in.g.Updates().SetHeadBranch(in.branch); err != nil {
			return false, err
		}
	}
	in.res.Empty = true
	if gitstore.ShortRef(in.branch) != "main" {
		return true, in.rememberBranch()
	}
	return true, nil
}

type initializer struct {
	g      *gitstore.Repo
	branch string
	res    *Result
	sig    object.Signature
}

func (in *initializer) run(opts Options) error {
	sig, warn, err := in.g.Identity()
	if err != nil {
		return err
	}
	in.sig = sig
	if warn != "" {
		in.res.Warnings = append(in.res.Warnings, warn)
	}
	old, oldTree, err := in.tip()
	if err != nil {
		return err
	}
	cfg := policy.DefaultConfig(gitstore.ShortRef(in.branch))
	tree, err := in.initTree(oldTree, cfg)
	if err != nil {
		return err
	}
	tip, err := in.commit(tree, old, initMessage(in.res.Adopted))
	if err != nil {
		return err
	}
	if opts.Pack != nil {
		if tree, tip, err = in.publishPack(tree, tip, cfg, opts); err != nil {
			return err
		}
	}
	return in.finish(old, oldTree, tree, tip, cfg)
}

// tip returns the publish branch's current commit and tree, or zero ids when it is unborn.
func (in *initializer) tip() (gitstore.Hash, gitstore.Hash, error) {
	h, err := in.g.Refs().Get(in.branch)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return gitstore.ZeroHash, gitstore.ZeroHash, nil
	}
	if err != nil {
		return h, h, err
	}
	c, err := in.g.Objects().Commit(h)
	if err != nil {
		return h, h, err
	}
	if _, ok, _ := in.g.Objects().EntryAt(c.TreeHash, policy.ConfigFile); ok {
		return h, h, fmt.Errorf("%s: %w (%s exists on %s); nothing to do", in.res.Dir, ErrAlreadyInitialized, policy.ConfigFile, gitstore.ShortRef(in.branch))
	}
	return h, c.TreeHash, nil
}

// initTree adds the configuration and, if missing, the skills folder to the tree.
func (in *initializer) initTree(tree gitstore.Hash, cfg *policy.Config) (gitstore.Hash, error) {
	tree, err := in.putFile(tree, policy.ConfigFile, cfg.Marshal())
	if err != nil {
		return tree, err
	}
	if _, ok, err := in.g.Objects().EntryAt(tree, cfg.SkillsDir); err != nil || ok {
		return tree, err
	}
	return in.putFile(tree, cfg.SkillsDir+"/.gitkeep", nil)
}

func (in *initializer) putFile(tree gitstore.Hash, p string, data []byte) (gitstore.Hash, error) {
	blob, err := in.g.Writes().WriteBlob(data)
	if err != nil {
		return tree, err
	}
	return in.g.Writes().ReplacePath(tree, p, &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
}

func (in *initializer) commit(tree, parent gitstore.Hash, msg string) (gitstore.Hash, error) {
	spec := gitstore.CommitSpec{Tree: tree, Author: in.sig, Committer: in.sig, Message: msg}
	if !parent.IsZero() {
		spec.Parents = []gitstore.Hash{parent}
	}
	h, err := in.g.Writes().WriteCommit(spec)
	if err == nil {
		in.res.Commits = append(in.res.Commits, h.String())
	}
	return h, err
}

func initMessage(adopted bool) string {
	subject := "init: create skill repository"
	if adopted {
		subject = "init: adopt repository for skillgit"
	}
	return gitstore.FormatMessage(subject, "Adds "+policy.ConfigFile+" and the skills folder.",
		[]gitstore.Trailer{{Key: ledger.KeyAction, Value: ledger.ActInit}})
}

// finish brings a checked-out publish branch's files up to date, then moves the ref.
func (in *initializer) finish(old, oldTree, tree, tip gitstore.Hash, cfg *policy.Config) error {
	head, err := in.g.Refs().HeadBranch()
	checkedOut := err == nil && head == in.branch && !in.g.Bare()
	paths := []string{policy.ConfigFile, cfg.SkillsDir}
	if checkedOut {
		if err := in.g.UpdateWorktree(oldTree, tree, paths); err != nil {
			return err
		}
	}
	if err := in.g.Updates().Update(in.branch, tip, old, "skillgit init"); err != nil {
		if checkedOut {
			_ = in.g.UpdateWorktree(tree, oldTree, paths)
		}
		return err
	}
	if gitstore.ShortRef(in.branch) != "main" {
		return in.rememberBranch()
	}
	return nil
}

// rememberBranch records a publish branch other than main in the repository's git config.
func (in *initializer) rememberBranch() error {
	gr := in.g.Git()
	c, err := gr.Config()
	if err != nil {
		return err
	}
	c.Raw.Section("skillgit").SetOption("publishBranch", gitstore.ShortRef(in.branch))
	return gr.SetConfig(c)
}
