package packs

import (
	"fmt"
	"path"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"

	"github.com/skillgit/skillgit/lifecycle/policy"
)

// selected reports whether the pack's include and exclude globs keep the skill the pack
// calls name (its name before any prefix).
func selected(p policy.Pack, name string) bool {
	if len(p.Include) > 0 && !matchAny(p.Include, name) {
		return false
	}
	return !matchAny(p.Exclude, name)
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// rename writes, in the pack's temporary repository, a copy of the skill folder dir (whose
// tree is tree) whose SKILL.md names it newName, every other byte kept, and places it at the
// top of a new tree. It returns that tree and the new folder's tree.
func (fp *fetchedPack) rename(dir string, tree gitstore.Hash, newName string) (root, folder gitstore.Hash, err error) {
	e, ok, err := fp.repo.Objects().EntryAt(tree, catalog.FileName)
	if err != nil || !ok {
		return root, folder, fmt.Errorf("%s: no %s to rename (%v)", dir, catalog.FileName, err)
	}
	data, err := fp.repo.Objects().ReadBlob(e.Hash, catalog.MaxSkillFileSize)
	if err != nil {
		return root, folder, fmt.Errorf("%s: %w", dir, err)
	}
	data, err = catalog.RenameSkill(data, newName)
	if err != nil {
		return root, folder, fmt.Errorf("%s/%s: %w", dir, catalog.FileName, err)
	}
	blob, err := fp.repo.Writes().WriteBlob(data)
	if err != nil {
		return root, folder, err
	}
	if folder, err = fp.repo.Writes().ReplacePath(tree, catalog.FileName, &gitstore.TreeEntry{Mode: e.Mode, Hash: blob}); err != nil {
		return root, folder, err
	}
	root, err = fp.repo.Writes().ReplacePath(gitstore.ZeroHash, newName, &gitstore.TreeEntry{Mode: filemode.Dir, Hash: folder})
	return root, folder, err
}
