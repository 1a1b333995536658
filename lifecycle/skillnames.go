package lifecycle

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// Skill names are unique across the category folders of a channel: `read`, `sync` and agents
// know a skill by its name alone, so a second folder of one name would serve one of the two
// in the other's place. Propose, publish (with --as too) and the server's check of a publish
// refuse a change that would give a name a second folder.

// skillNamed is the skill called name in a listing, nil when there is none. A listing keeps its
// skills sorted by name (then folder), so this is one binary search.
func skillNamed(res *catalog.Result, name string) *catalog.Skill {
	i, ok := slices.BinarySearchFunc(res.Skills, name, func(s *catalog.Skill, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return nil
	}
	return res.Skills[i]
}

// skillFolder is the folder of the skills folder of the root tree root that holds the skill
// name as agents load it, "" when none does; label names the version in errors. It reads the
// listing of the skills folder, which is cached by its tree id and, after a publish, brought
// up to date from the one before by reading only the folders that changed, so a check costs
// a lookup, not a walk of every skill: at 10,000 skills about 15 ms from the cache, 40 ms
// for the first check after a publish and 0.4 s with no cache (BenchmarkSkillFolder). A
// skill whose object cannot be read fails it: its name is unknown.
func (r *Repo) skillFolder(root gitstore.Hash, name, label string) (string, error) {
	res, err := r.CatalogAt(root, r.Config.SkillsDir, label)
	if err != nil {
		return "", err
	}
	if err := unreadableCatalog(res, label); err != nil {
		return "", err
	}
	if s := skillNamed(res, name); s != nil {
		return s.Dir, nil
	}
	return "", nil
}

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
		if f.head.IsZero() || f.mode != 0 || !r.isSkillPath(f.path) {
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
	other, err := r.skillFolder(tree, name, label)
	if err != nil || other == "" || other == p {
		return nil, err
	}
	return &nameClash{name: name, path: p, other: other, channel: label}, nil
}
