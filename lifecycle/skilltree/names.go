package skilltree

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// Skill names are unique across the category folders of a channel (published.SkillFolder):
// propose, publish (with --as too) and the server's check of a publish refuse a change that
// would give a name a second folder.

// ErrConflict reports a change that collides with what is published.
var ErrConflict = errors.New("conflict")

// LoadedName is the name agents load the skill in folder dir of the root tree root by; ""
// when it does not load.
func (st Trees) LoadedName(root gitstore.Hash, dir string) string {
	if s, _ := catalog.Load(st.g.Objects().TreeFS(root), dir, catalog.Lenient, true); s != nil {
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

// Clash is the first folder of changes, in the merged tree tree, that gets a name another
// folder holds on the channel target, as its tree startTree has it, or, for a publish to the
// publish branch, on the canary channel; nil when there is none. The error wraps ErrConflict.
func (st Trees) Clash(startTree, tree gitstore.Hash, changes []Change, target string) error {
	c, err := st.firstClash(startTree, tree, changes, target)
	if c != nil {
		return c
	}
	return err
}

// firstClash is Clash's clash.
func (st Trees) firstClash(startTree, tree gitstore.Hash, changes []Change, target string) (*nameClash, error) {
	trees, labels, err := st.channelTrees(startTree, target)
	if err != nil {
		return nil, err
	}
	for _, f := range changes {
		if f.Head.IsZero() || f.Mode != 0 || !st.IsSkillPath(f.Path) {
			continue
		}
		name := st.LoadedName(tree, f.Path)
		if name == "" {
			continue
		}
		for i, t := range trees {
			c, err := st.clashIn(t, labels[i], name, f.Path)
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
func (st Trees) channelTrees(startTree gitstore.Hash, target string) ([]gitstore.Hash, []string, error) {
	trees := []gitstore.Hash{startTree}
	labels := []string{strings.TrimPrefix(target, "refs/heads/")}
	if target == ledger.CanaryRef {
		return trees, labels, nil
	}
	canary, err := st.g.Refs().Get(ledger.CanaryRef)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return trees, labels, nil
	}
	if err != nil {
		return nil, nil, err
	}
	c, err := st.g.Objects().Commit(canary)
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
func (st Trees) clashIn(tree gitstore.Hash, label, name, p string) (*nameClash, error) {
	if st.LoadedName(tree, p) == name {
		return nil, nil
	}
	other, err := published.SkillFolder(st.g, tree, st.dir, name, label)
	if err != nil || other == "" || other == p {
		return nil, err
	}
	return &nameClash{name: name, path: p, other: other, channel: label}, nil
}

// SkillAt reads commit h, labelled label in errors, and finds in its skills folder the skill
// name, nil when there is none; names are the skills there.
func (st Trees) SkillAt(h gitstore.Hash, name, label string) (*object.Commit, *catalog.Skill, []string, error) {
	c, err := st.g.Objects().Commit(h)
	if err != nil {
		return nil, nil, nil, err
	}
	cat, err := published.CatalogAt(st.g, c.TreeHash, st.dir, label)
	if err != nil {
		return nil, nil, nil, err
	}
	var found *catalog.Skill
	names := make([]string, 0, len(cat.Skills))
	for _, s := range cat.Skills {
		if s.Name == name {
			found = s
		}
		names = append(names, s.Name)
	}
	return c, found, names, nil
}
