package published

import (
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
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
// errors. It reads the listing of the skills folder, which is cached by its tree id and, after
// a publish, brought up to date from the one before by reading only the folders that changed,
// so a check costs a lookup, not a walk of every skill: at 10,000 skills about 15 ms from the
// cache, 40 ms for the first check after a publish and 0.4 s with no cache
// (BenchmarkSkillFolder). A skill whose object cannot be read fails it: its name is unknown.
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

// maxQuick bounds the folders changed since the cached listing that skillFolderQuick reads.
const maxQuick = 64

// skillFolderQuick answers SkillFolder from the listing cached for an earlier version of the
// skills folder and the skill folders changed since, without bringing the whole listing up
// to date: at 100,000 skills that costs 0.15 s, and a publish of a new skill asks it once.
// The cached listing is decoded only when the name, or the name of a changed skill, occurs in
// its bytes. ok is false when it cannot tell for sure (no cached listing, a change the
// listing would not follow, an unreadable skill, a name used twice) and the caller lists the
// skills.
func skillFolderQuick(g *gitstore.Repo, root gitstore.Hash, skillsDir, name string) (string, bool) {
	e, ok, err := g.Objects().EntryAt(root, skillsDir)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return "", false
	}
	cache := catalogCacheOf(g.CommonDir())
	prev, ok := cache.latest()
	if !ok {
		return "", false
	}
	data, ok := cache.raw(prev)
	if !ok {
		return "", false
	}
	changes, stray, err := ledger.DiffFolders(ledger.StoreOf(g), prev, e.Hash)
	if err != nil || len(stray) > 0 || len(changes) > maxQuick {
		return "", false
	}
	fresh, changed, ok := changedSkills(g.Objects().TreeFS(e.Hash), changedPaths(changes))
	if !ok {
		return "", false
	}
	dir, ok := namedIn(data, name, fresh, changed)
	if ok && dir != "" {
		dir = path.Join(skillsDir, dir)
	}
	return dir, ok
}

// changedSkills reads the changed folders as the listing would: the skills there now, and
// the set of folders changed. ok is false for a change the listing would not follow, a
// skill that cannot be read, or two changed skills of one name.
func changedSkills(fsys fs.FS, dirs []string) ([]*catalog.Skill, map[string]bool, bool) {
	changed := make(map[string]bool, len(dirs))
	var fresh []*catalog.Skill
	for _, dir := range dirs {
		changed[dir] = true
		s, problems, _, ok := catalog.LoadChanged(fsys, dir, listingOptions)
		if !ok || slices.ContainsFunc(problems, func(p catalog.Problem) bool { return p.Object != "" }) {
			return nil, nil, false
		}
		if s != nil {
			if slices.ContainsFunc(fresh, func(o *catalog.Skill) bool { return o.Name == s.Name }) {
				return nil, nil, false
			}
			fresh = append(fresh, s)
		}
	}
	return fresh, changed, true
}

// namedIn returns the folder of the skill called name given the encoded cached listing data,
// the skills of the changed folders and those folders; ok is false when a changed skill takes
// a name an unchanged one has, which only the whole listing settles.
func namedIn(data []byte, name string, fresh []*catalog.Skill, changed map[string]bool) (string, bool) {
	var old *catalog.Result
	for _, n := range append([]string{name}, namesOf(fresh)...) {
		if bytes.Contains(data, []byte(n)) {
			var ok bool
			if old, ok = decodeCatalog(data); !ok || !cacheable(old) {
				return "", false
			}
			break
		}
	}
	kept := func(n string) *catalog.Skill {
		if old == nil {
			return nil
		}
		if s := skillNamed(old, n); s != nil && !changed[s.Dir] {
			return s
		}
		return nil
	}
	if slices.ContainsFunc(fresh, func(s *catalog.Skill) bool { return kept(s.Name) != nil }) {
		return "", false
	}
	if i := slices.IndexFunc(fresh, func(s *catalog.Skill) bool { return s.Name == name }); i >= 0 {
		return fresh[i].Dir, true
	}
	if s := kept(name); s != nil {
		return s.Dir, true
	}
	return "", true
}

// namesOf returns the names of skills.
func namesOf(skills []*catalog.Skill) []string {
	out := make([]string, len(skills))
	for i, s := range skills {
		out[i] = s.Name
	}
	return out
}
