package lifecycle

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// Published lists the skills on the publish branch as agents load them (lenient), reading only
// their frontmatter. Results are cached by the skills folder's tree id. A skill that git cannot
// read (a missing or damaged object) fails the listing with an ErrUnreadableSkill naming the
// object: what the branch publishes is then unknown, not merely short of one skill.
func (r *Repo) Published() (*catalog.Result, error) {
	label := short(r.Branch)
	res, err := r.CatalogAt(r.Tree, r.Config.SkillsDir, label)
	if err != nil {
		return nil, err
	}
	if err := unreadableCatalog(res, label); err != nil {
		return nil, err
	}
	return res, nil
}

// CatalogAt lists the skills in folder dir of the root tree root as agents load them, reading
// only their frontmatter; label names the version in errors. Results are cached by the
// folder's tree id.
func (r *Repo) CatalogAt(root gitstore.Hash, dir, label string) (*catalog.Result, error) {
	e, ok, err := r.Git.EntryAt(root, dir)
	if err != nil {
		return nil, withObjectHint(fmt.Errorf("%s:%s: %w", label, dir, err))
	}
	if !ok || e.Mode != filemode.Dir {
		return &catalog.Result{}, nil
	}
	cache := r.catalogCache()
	if res, hit := cache.get(e.Hash); hit {
		prefix(res, dir)
		return res, nil
	}
	res, err := r.catalogOf(cache, e.Hash)
	if err != nil {
		return nil, withObjectHint(fmt.Errorf("%s:%s: %w", label, dir, err))
	}
	if cacheable(res) {
		cache.put(e.Hash, res)
		cache.setLatest(e.Hash)
	}
	prefix(res, dir)
	return res, nil
}

// publishedOptions is how the published catalog is read: as agents load it, frontmatter only.
var publishedOptions = catalog.Options{Mode: catalog.Lenient, FrontmatterOnly: true}

// catalogOf lists the skills of the skills folder tree. After a publish, the cache holds the
// listing of the folder as it was before, and only the skills the publish changed are read
// again; otherwise every skill is.
func (r *Repo) catalogOf(cache catalogCache, tree gitstore.Hash) (*catalog.Result, error) {
	fsys := r.Git.TreeFS(tree)
	if prev, ok := cache.latest(); ok {
		if old, hit := cache.get(prev); hit {
			fd := &folderDiff{g: r.Git}
			if err := fd.walk(".", prev, tree, 0); err == nil && len(fd.stray) == 0 {
				if res, ok := catalog.Update(old, fsys, changedPaths(fd.changes), publishedOptions); ok {
					return res, nil
				}
			}
		}
	}
	return catalog.Discover(fsys, ".", publishedOptions)
}

// changedPaths lists the folders of changes, relative to the folder walked.
func changedPaths(changes []folderChange) []string {
	out := make([]string, len(changes))
	for i, f := range changes {
		out[i] = strings.TrimPrefix(f.path, "./")
	}
	return out
}

// prefix turns paths relative to the skills folder dir into repository paths.
func prefix(res *catalog.Result, dir string) {
	for _, s := range res.Skills {
		s.Dir = path.Join(dir, s.Dir)
	}
	for i := range res.Problems {
		res.Problems[i].File = path.Join(dir, res.Problems[i].File)
	}
	for i := range res.Folders {
		res.Folders[i] = path.Join(dir, res.Folders[i])
	}
}

// Find returns the published skill with the given name.
func (r *Repo) Find(name string) (*catalog.Skill, error) {
	res, err := r.Published()
	if err != nil {
		return nil, err
	}
	if s := skillNamed(res, name); s != nil {
		return s, nil
	}
	return nil, fmt.Errorf("%s: skill %w on %s; `skillgit list` shows what is published", name, ErrNotFound, short(r.Branch))
}

// SkillFS returns the published files of a skill folder as an fs.FS rooted at the folder.
func (r *Repo) SkillFS(s *catalog.Skill) (fs.FS, gitstore.Hash, error) {
	e, ok, err := r.Git.EntryAt(r.Tree, s.Dir)
	if err != nil {
		return nil, e.Hash, err
	}
	if !ok || e.Mode != filemode.Dir {
		return nil, e.Hash, fmt.Errorf("%s: %s is not a folder on %s", s.Name, s.Dir, short(r.Branch))
	}
	return r.Git.TreeFS(e.Hash), e.Hash, nil
}

// Content returns the whole SKILL.md of a published skill.
func (r *Repo) Content(s *catalog.Skill) ([]byte, error) {
	fsys, _, err := r.SkillFS(s)
	if err != nil {
		return nil, withObjectHint(err)
	}
	data, err := fs.ReadFile(fsys, catalog.FileName)
	if err != nil {
		return nil, withObjectHint(fmt.Errorf("%s: %s: %w", s.Name, s.File(), err))
	}
	if len(data) > catalog.MaxSkillFileSize {
		return nil, fmt.Errorf("%s: %s is %d bytes, over the %d-byte limit", s.Name, s.File(), len(data), catalog.MaxSkillFileSize)
	}
	return data, nil
}

// BaseDir is where an agent finds a skill's files: the folder in the working tree, or for a
// bare repository the git revision path (branch:path).
func (r *Repo) BaseDir(s *catalog.Skill) string {
	if wt := r.Git.WorktreeDir(); wt != "" {
		return filepath.Join(wt, filepath.FromSlash(s.Dir))
	}
	return short(r.Branch) + ":" + s.Dir
}

// Location is the SKILL.md path shown to agents in the prompt block.
func (r *Repo) Location(s *catalog.Skill) string {
	base := r.BaseDir(s)
	if strings.Contains(base, ":") && r.Git.WorktreeDir() == "" {
		return base + "/" + catalog.FileName
	}
	return filepath.Join(base, catalog.FileName)
}

// ChannelTree returns the root tree of a channel, main or canary; canary is the publish
// branch until a canary publish creates it.
func (r *Repo) ChannelTree(channel string) (gitstore.Hash, error) {
	tip, err := r.ChannelCommit(channel)
	switch {
	case err != nil:
		return gitstore.ZeroHash, err
	case tip == r.Tip:
		return r.Tree, nil
	}
	c, err := r.Git.Commit(tip)
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("canary: %w", err)
	}
	return c.TreeHash, nil
}
