package packs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/gitauth"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Bounds on what a pack may hold.
const (
	maxPackEntries = 50_000
	maxPackDepth   = 32
	maxLinkShown   = 200
)

// fetchedPack is a pack's commit, fetched into a repository of its own in a temporary folder:
// nothing of it reaches the skill repository until it has been checked. Its objects stay in
// the fetched pack file, read as they are needed, so that a large pack costs little memory.
type fetchedPack struct {
	repo *gitstore.Repo
	// remove closes the repository and removes its folder.
	remove func()
	ref    string
	commit gitstore.Hash
	// folder is the pack's skills folder inside its tree, "." for the root; tree is its tree.
	folder string
	tree   gitstore.Hash
	// paths holds the names checked so far, for the path policy's case collisions.
	paths catalog.PathSet
	// unsafe maps each path of the folder that may not be stored (a link, a submodule, a
	// name the path policy refuses) to why; the skill holding it is skipped.
	unsafe map[string]string
	// single is true when the folder holds a SKILL.md: the pack is that one skill.
	single bool
}

// fetchPack fetches the pack's ref with depth 1 into a temporary repository and finds its
// skills folder. The caller closes what it returns.
func fetchPack(ctx context.Context, p policy.Pack, progress io.Writer) (fp *fetchedPack, err error) {
	repo, remove, err := scratchRepo()
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", p.Name, err)
	}
	defer func() {
		if err != nil {
			remove()
		}
	}()
	store := &budgetStorer{Storer: repo.Git().Storer, budget: maxBytes(p)}
	remote := git.NewRemote(store, &config.RemoteConfig{Name: "pack", URLs: []string{p.URL}})
	access, shown := gitauth.For(p.URL), gitauth.Redact(p.URL)
	refs, err := access.List(ctx, remote, &git.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("pack %s: listing %s: %w", p.Name, shown, err)
	}
	name, err := pickRef(refs, p.Ref)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %s: %w", p.Name, shown, err)
	}
	const local = "refs/skillgit/pack"
	opts := &git.FetchOptions{
		RefSpecs: []config.RefSpec{config.RefSpec("+" + name + ":" + local)},
		Depth:    1, Tags: git.NoTags, Force: true,
	}
	if progress != nil {
		opts.Progress = progress
	}
	err = access.Fetch(ctx, remote, opts)
	if errors.Is(err, errPackTooLarge) {
		return nil, fmt.Errorf("pack %s: %w: %s from %s holds more than its limit of %s of object content: %w; nothing was written; "+
			"if the pack is trusted, raise the limit with max_bytes (in bytes) under the pack in %s, e.g. max_bytes: %d",
			p.Name, lifecycle.ErrRefused, gitstore.ShortRef(name), shown, sizeText(maxBytes(p)), err, policy.ConfigFile, suggestMaxBytes(err, maxBytes(p)))
	}
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil, fmt.Errorf("pack %s: fetching %s from %s: %w", p.Name, gitstore.ShortRef(name), shown, err)
	}
	ref, err := repo.Git().Storer.Reference(local)
	if err != nil {
		return nil, fmt.Errorf("pack %s: the fetch of %s from %s brought no commit: %w", p.Name, gitstore.ShortRef(name), shown, err)
	}
	fp = &fetchedPack{repo: repo, remove: remove, ref: name}
	if fp.commit, err = peelToCommit(repo, ref.Hash()); err != nil {
		return nil, fmt.Errorf("pack %s: %s: %w", p.Name, gitstore.ShortRef(name), err)
	}
	if err = fp.findFolder(p); err != nil {
		return nil, err
	}
	return fp, nil
}

// close closes the fetched pack's repository and removes it.
func (fp *fetchedPack) close() { fp.remove() }

// pickRef resolves the ref to fetch: want as a full ref, branch or tag, else what the remote's
// HEAD points to.
func pickRef(refs []*plumbing.Reference, want string) (string, error) {
	byName := map[string]*plumbing.Reference{}
	for _, r := range refs {
		byName[r.Name().String()] = r
	}
	if want == "" {
		head, ok := byName["HEAD"]
		switch {
		case !ok:
			return "", fmt.Errorf("the remote has no HEAD; give the branch with --ref")
		case head.Type() == plumbing.SymbolicReference:
			return head.Target().String(), nil
		}
		return "HEAD", nil
	}
	for _, name := range []string{want, "refs/heads/" + want, "refs/tags/" + want} {
		if _, ok := byName[name]; ok && (name == want) == strings.HasPrefix(want, "refs/") {
			return name, nil
		}
	}
	return "", fmt.Errorf("no branch or tag %q; `git ls-remote` lists what the remote has", want)
}

// peelToCommit follows annotated tags to the commit they name.
func peelToCommit(g *gitstore.Repo, h gitstore.Hash) (gitstore.Hash, error) {
	for range 8 {
		if _, err := g.Objects().Commit(h); err == nil {
			return h, nil
		}
		tag, err := g.Git().TagObject(h)
		if err != nil {
			return h, fmt.Errorf("object %s is neither a commit nor a tag", h)
		}
		h = tag.Target
	}
	return h, fmt.Errorf("tags nested too deep at %s", h)
}

// findFolder locates the pack's skills folder: the configured path, else skills/ when the
// pack has one, else its root.
func (fp *fetchedPack) findFolder(p policy.Pack) error {
	c, err := fp.repo.Objects().Commit(fp.commit)
	if err != nil {
		return fmt.Errorf("pack %s: %w", p.Name, err)
	}
	folder := p.Path
	if folder == "" {
		folder = "."
		if e, ok, err := fp.repo.Objects().EntryAt(c.TreeHash, "skills"); err == nil && ok && e.Mode == filemode.Dir {
			folder = "skills"
		}
	}
	fp.folder, fp.tree = folder, c.TreeHash
	if folder == "." {
		fp.single = fp.hasSkillFile(fp.tree)
		return nil
	}
	e, ok, err := fp.repo.Objects().EntryAt(c.TreeHash, folder)
	switch {
	case err != nil:
		return fmt.Errorf("pack %s: %w: %s at %s: %v", p.Name, lifecycle.ErrRefused, folder, short7(fp.commit), err)
	case !ok || e.Mode != filemode.Dir:
		return fmt.Errorf("pack %s: %s is not a folder at %s (%s); correct the pack's path", p.Name, folder, short7(fp.commit), gitstore.ShortRef(fp.ref))
	}
	fp.tree = e.Hash
	fp.single = fp.hasSkillFile(fp.tree)
	return nil
}

// hasSkillFile reports whether the folder tree holds a SKILL.md file.
func (fp *fetchedPack) hasSkillFile(tree gitstore.Hash) bool {
	e, ok, err := fp.repo.Objects().EntryAt(tree, catalog.FileName)
	return err == nil && ok && e.Mode != filemode.Dir
}

// check walks the pack folder within the pack bounds, which fail the pack, and records in
// fp.unsafe every symbolic link, submodule and name the path policy (see catalog.PathSet)
// refuses, which fail only the skill that holds them.
func (fp *fetchedPack) check(name string) error {
	count := 0
	fp.unsafe = map[string]string{}
	if err := fp.checkTree(fp.tree, fp.folder, 0, &count); err != nil {
		return fmt.Errorf("pack %s at %s: %w: %w; nothing was written", name, short7(fp.commit), lifecycle.ErrRefused, err)
	}
	return nil
}

func (fp *fetchedPack) checkTree(tree gitstore.Hash, dir string, depth int, count *int) error {
	if depth > maxPackDepth {
		return fmt.Errorf("%s: folders nest deeper than %d levels", dir, maxPackDepth)
	}
	entries, err := fp.repo.Objects().ReadTree(tree)
	if err != nil {
		msg := fmt.Sprintf("%s: the tree is malformed or holds a name that is not a plain file name (%v)", dir, err)
		if depth == 0 {
			return errors.New(msg)
		}
		fp.unsafe[dir] = msg
		return nil
	}
	for _, e := range entries {
		if *count++; *count > maxPackEntries {
			return fmt.Errorf("%s: more than %d files and folders", dir, maxPackEntries)
		}
		p, err := fp.paths.AddEntry(packRel(dir), e.Name)
		if err != nil {
			fp.unsafe[path.Join(dir, e.Name)] = err.Error()
			continue
		}
		if e.Mode == filemode.Dir {
			if err := fp.checkTree(e.Hash, p, depth+1, count); err != nil {
				return err
			}
			continue
		}
		if msg := fp.entryProblem(p, e); msg != "" {
			fp.unsafe[p] = msg
		}
	}
	return nil
}

// entryProblem says why a file entry may not be stored, or "" when it may.
func (fp *fetchedPack) entryProblem(p string, e gitstore.TreeEntry) string {
	switch e.Mode {
	case filemode.Regular, filemode.Executable:
		return ""
	case filemode.Symlink:
		target, _ := fp.repo.Objects().ReadBlob(e.Hash, maxLinkShown)
		return fmt.Sprintf("%s is a symbolic link (to %q)", p, target)
	case filemode.Submodule:
		return fmt.Sprintf("%s is a submodule (gitlink to %s)", p, e.Hash)
	}
	return fmt.Sprintf("%s has file mode %o, which git does not write", p, uint32(e.Mode))
}

// unsafeIn returns why the skill folder dir may not be stored, or "" when it may.
func (fp *fetchedPack) unsafeIn(dir string) string {
	var found []string
	for p, msg := range fp.unsafe {
		if p == dir || strings.HasPrefix(p, dir+"/") || dir == "." {
			found = append(found, msg)
		}
	}
	if len(found) == 0 {
		return ""
	}
	sort.Strings(found)
	return strings.Join(found, "; ") + "; a skill may hold only files and folders with plain names"
}

// packRel is a folder of the pack's tree as the path policy writes it: "" for the root.
func packRel(dir string) string {
	if dir == "." {
		return ""
	}
	return dir
}

func short7(h gitstore.Hash) string { return h.String()[:7] }
