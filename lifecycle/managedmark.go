package lifecycle

import (
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// markManaged adds metadata.managed-by: skillgit to the frontmatter of the SKILL.md of a new
// skill an unattended actor proposes, keeping every other byte. It leaves the snapshot as it
// is when the frontmatter has a shape it does not edit safely (a flow mapping, CRLF line
// ends) or already names a manager: the Skillgit-Managed-By trailer marks the skill then.
func (snap *snapshot) markManaged(g *gitstore.Repo) error {
	e, ok, err := g.Objects().EntryAt(snap.tree, catalog.FileName)
	if err != nil || !ok || e.Mode != filemode.Regular {
		return err
	}
	data, err := g.Objects().ReadBlob(e.Hash, catalog.MaxSkillFileSize)
	if err != nil {
		return err
	}
	marked, ok := policy.MarkManaged(data)
	if !ok {
		return nil
	}
	_, before := catalog.Parse("", data, catalog.Lenient)
	s, after := catalog.Parse("", marked, catalog.Lenient)
	if s == nil || s.Name != snap.skill.Name || s.Metadata["managed-by"] != policy.ManagedBy || len(after) > len(before) {
		return nil
	}
	h, err := g.Writes().WriteBlob(marked)
	if err != nil {
		return err
	}
	tree, err := g.Writes().ReplacePath(snap.tree, catalog.FileName, &gitstore.TreeEntry{Name: catalog.FileName, Mode: e.Mode, Hash: h})
	if err != nil {
		return err
	}
	snap.tree = tree
	return nil
}
