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
func (st skillTrees) loadedName(root gitstore.Hash, dir string) string {
	if s, _ := catalog.Load(st.g.TreeFS(root), dir, catalog.Lenient, true); s != nil {
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

// clash is the first folder m gives a name that another folder holds on the channel target,
// as start's tree has it, or, for a publish to the publish branch, on the canary channel; nil
// when there is none.
func (st skillTrees) clash(m *merge, target string) error {
	c, err := st.firstClash(m, target)
	if c != nil {
		return c
	}
	return err
}

// firstClash is clash's clash.
func (st skillTrees) firstClash(m *merge, target string) (*nameClash, error) {
	trees, labels, err := st.channelTrees(m.startTree, target)
	if err != nil {
		return nil, err
	}
	for _, f := range m.changes {
		if f.head.IsZero() || f.mode != 0 || !st.isSkillPath(f.path) {
			continue
		}
		name := st.loadedName(m.tree, f.path)
		if name == "" {
			continue
		}
		for i, tree := range trees {
			c, err := st.clashIn(tree, labels[i], name, f.path)
			if c != nil || err != nil {
				return c, err
			}
		}
	}
	return nil, nil
}

// channelTrees are the trees a publish onto startTree of target must keep names unique in,
// with their labels: startTree, and for a publish to the publish branch the canary channel's
// tree when there is a canary channel and it differs.
func (st skillTrees) channelTrees(startTree gitstore.Hash, target string) ([]gitstore.Hash, []string, error) {
	trees := []gitstore.Hash{startTree}
	labels := []string{short(target)}
	if target == canaryRef {
		return trees, labels, nil
	}
	canary, err := st.g.Ref(canaryRef)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return trees, labels, nil
	}
	if err != nil {
		return nil, nil, err
	}
	c, err := st.g.Commit(canary)
	if err != nil {
		return nil, nil, err
	}
	if c.TreeHash != startTree {
		trees, labels = append(trees, c.TreeHash), append(labels, "canary")
	}
	return trees, labels, nil
}

// clashIn reports the clash of giving the folder at p the skill name on the channel whose
// tree is tree, labelled label; nil when name is free there or already at p. A folder that
// already loads under the name (a patch that keeps it) needs no lookup; and when two folders
// share a name already, a patch of either is not what gave it the second one.
func (st skillTrees) clashIn(tree gitstore.Hash, label, name, p string) (*nameClash, error) {
	if st.loadedName(tree, p) == name {
		return nil, nil
	}
	other, err := published.SkillFolder(st.g, tree, st.dir, name, label)
	if err != nil || other == "" || other == p {
		return nil, err
	}
	return &nameClash{name: name, path: p, other: other, channel: label}, nil
}
