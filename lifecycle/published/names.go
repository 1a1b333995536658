package published

import (
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// Skill names are unique across the category folders of a channel: `read`, `sync` and agents
// know a skill by its name alone, so a second folder of one name would serve one of the two
// in the other's place.

// skillNamed is the skill called name in a listing, nil when there is none. A listing keeps its
// skills sorted by name (then folder), so this is one binary search.
func skillNamed(res *catalog.Result, name string) *catalog.Skill {
	i, ok := slices.BinarySearchFunc(res.Skills, name, func(s *catalog.Skill, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return nil
	}
	return res.Skills[i]
}

// SkillFolder is the folder of the skills folder skillsDir of the root tree root of g that
// holds the skill name as agents load it, "" when none does; label names the version in
// errors. It looks the name up in the listing cached for an earlier version and in the
// folders changed since (skillFolderQuick); when that cannot tell, it reads the listing of
// the skills folder, which is cached by its tree id and, after a publish, brought up to date
// from the one before by reading only the folders that changed, so a check costs a lookup,
// not a walk of every skill: at 10,000 skills about 15 ms from the cache, 40 ms for the first
// check after a publish and 0.4 s with no cache (BenchmarkSkillFolder). A skill whose object
// cannot be read fails it: its name is unknown.
func SkillFolder(g *gitstore.Repo, root gitstore.Hash, skillsDir, name, label string) (string, error) {
	if dir, ok := skillFolderQuick(g, root, skillsDir, name); ok {
		return dir, nil
	}
	res, err := CatalogAt(g, root, skillsDir, label)
	if err != nil {
		return "", err
	}
	if err := unreadable(res, label); err != nil {
		return "", err
	}
	if s := skillNamed(res, name); s != nil {
		return s.Dir, nil
	}
	return "", nil
}
