package lifecycle

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// Skill names are unique across the category folders of a channel (published.SkillFolder):
// propose, publish (with --as too) and the server's check of a publish refuse a change that
// would give a name a second folder.

// loadedName is the name agents load the skill in folder dir of the root tree root by; ""
// when it does not load.
func (r *Repo) loadedName(root gitstore.Hash, dir string) string {
	if s, _ := catalog.Load(r.Git.TreeFS(root), dir, catalog.Lenient, true); s != nil {
		return s.Name
	}
	return ""
}

// nameClash is a folder a publish would give a name that another folder of the channel holds.
type nameClash struct {
	name, path, other, channel string
}

func (c *nameClash) Error() string {
	return fmt.Sprintf("%s: %s: %s already has the skill %s at %s, and skill names are unique across category folders; publish the candidate under another name (`skillgit publish ID --as NAME`), or change that skill instead",
		c.name, ErrConflict, c.channel, c.name, c.other)
}

func (c *nameClash) Unwrap() error { return ErrConflict }

// publishClash is the first folder m gives a name that another folder holds on the channel
// target, as start's tree has it, or, for a publish to the publish branch, on the canary
// channel; nil when there is none.
func (r *Repo) publishClash(m *merge, target string) error {
	c, err := r.firstClash(m, target)
	if c != nil {
		return c
	}
	return err
}

// firstClash is publishClash's clash.
func (r *Repo) firstClash(m *merge, target string) (*nameClash, error) {
	trees := []gitstore.Hash{m.startTree}
	labels := []string{short(target)}
	if target != canaryRef {
		canary, err := r.Git.Ref(canaryRef)
		if err != nil && !errors.Is(err, gitstore.ErrRefNotFound) {
			return nil, err
		}
		if err == nil {
			t, err := r.treeOf(canary)
			if err != nil {
				return nil, err
			}
			if t != m.startTree {
				trees, labels = append(trees, t), append(labels, "canary")
			}
		}
	}
	for _, f := range m.changes {
		if f.head.IsZero() || f.mode != 0 || !treesOf(r).isSkillPath(f.path) {
			continue
		}
		name := r.loadedName(m.tree, f.path)
		if name == "" {
			continue
		}
		for i, tree := range trees {
			c, err := r.clashIn(tree, labels[i], name, f.path)
			if c != nil || err != nil {
				return c, err
			}
		}
	}
	return nil, nil
}

// clashIn reports the clash of giving the folder at p the skill name on the channel whose
// tree is tree, labelled label; nil when name is free there or already at p. A folder that
// already loads under the name (a patch that keeps it) needs no lookup; and when two folders
// share a name already, a patch of either is not what gave it the second one.
func (r *Repo) clashIn(tree gitstore.Hash, label, name, p string) (*nameClash, error) {
	if r.loadedName(tree, p) == name {
		return nil, nil
	}
	other, err := published.SkillFolder(r.Git, tree, r.Config.SkillsDir, name, label)
	if err != nil || other == "" || other == p {
		return nil, err
	}
	return &nameClash{name: name, path: p, other: other, channel: label}, nil
}
