package published

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// maxQuick bounds the folders changed since the listing that skillFolderQuick reads, and a
// lookup that read carryAfter of them carries the listing forward.
const (
	maxQuick   = 64
	carryAfter = 32
)

// skillFolderQuick answers SkillFolder from a listing of an earlier version of the skills
// folder and the skill folders changed since, without bringing the whole listing up to
// date: at 100,000 skills that costs 0.15 s, and a publish of a new skill asks it once. The
// listing is the one this process carried forward last (rollingBase), else the one cached
// last; a cached listing is decoded only when the name, or the name of a changed skill,
// occurs in its bytes. ok is false when it cannot tell for sure (no listing, a change the
// listing would not follow, an unreadable skill, a name used twice) and the caller lists the
// skills.
func skillFolderQuick(g *gitstore.Repo, root gitstore.Hash, skillsDir, name string) (string, bool) {
	e, ok, err := g.Objects().EntryAt(root, skillsDir)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return "", false
	}
	cache := catalogCacheOf(g.CommonDir())
	for _, base := range listingBases(cache) {
		dir, ok := lookUpSince(g, cache, base, e.Hash, name)
		if !ok {
			continue
		}
		if dir != "" {
			dir = path.Join(skillsDir, dir)
		}
		return dir, true
	}
	return "", false
}

// listingBases lists the versions of the skills folder whose listing a lookup may start
// from: the one carried forward in this process, then the one cached last.
func listingBases(cache catalogCache) []gitstore.Hash {
	var bases []gitstore.Hash
	if tree, ok := rollingBase(); ok {
		bases = append(bases, tree)
	}
	if tree, ok := cache.latest(); ok && !slices.Contains(bases, tree) {
		bases = append(bases, tree)
	}
	return bases
}

// lookUpSince looks name up in the skills folder tree from the listing of the earlier version
// base and the folders changed since; ok is false when that cannot tell. A lookup that read
// many changed folders carries the listing forward to tree, so that the lookups of a batch
// of publishes each read the few folders changed since the last carry, not all the batch has
// changed.
func lookUpSince(g *gitstore.Repo, cache catalogCache, base, tree gitstore.Hash, name string) (string, bool) {
	changes, stray, err := ledger.DiffFolders(ledger.StoreOf(g), base, tree)
	if err != nil || len(stray) > 0 || len(changes) > maxQuick {
		return "", false
	}
	fsys := g.Objects().TreeFS(tree)
	fresh, changed, ok := changedSkills(fsys, changes)
	if !ok {
		return "", false
	}
	old := &lazyListing{cache: cache, tree: base}
	dir, ok := namedIn(old, name, fresh, changed)
	if ok && len(changes) >= carryAfter {
		old.carry(tree, fsys, changes)
	}
	return dir, ok
}

// changedSkills reads the changed folders as the listing would: the skills there now, and
// the set of folders changed. ok is false for a change the listing would not follow, a
// skill that cannot be read, or two changed skills of one name.
func changedSkills(fsys fs.FS, changes []ledger.FolderChange) ([]*catalog.Skill, map[string]bool, bool) {
	changed := make(map[string]bool, len(changes))
	var fresh []*catalog.Skill
	for _, f := range changes {
		dir := strings.TrimPrefix(f.Path, "./")
		changed[dir] = true
		l := loadChanged(fsys, dir, f.Head)
		if !l.ok || slices.ContainsFunc(l.problems, func(p catalog.Problem) bool { return p.Object != "" }) {
			return nil, nil, false
		}
		if s := l.skill; s != nil {
			if slices.ContainsFunc(fresh, func(o *catalog.Skill) bool { return o.Name == s.Name }) {
				return nil, nil, false
			}
			fresh = append(fresh, s)
		}
	}
	return fresh, changed, true
}

// loaded is a changed folder as catalog.LoadChanged read it.
type loaded struct {
	skill    *catalog.Skill
	problems []catalog.Problem
	ok       bool
}

// loadedFolders keeps the changed folders read, by path and tree: the lookups of a batch of
// publishes read the same folders changed since the cached listing again and again.
var loadedFolders = struct {
	sync.Mutex
	m map[ledger.FolderChange]loaded
}{}

// maxLoadedFolders bounds loadedFolders; past it, it starts afresh.
const maxLoadedFolders = 4096

// loadChanged is catalog.LoadChanged of folder dir, whose tree is tree (zero when it is gone),
// read once per process. Nothing read is changed afterwards, so the skills are shared.
func loadChanged(fsys fs.FS, dir string, tree gitstore.Hash) loaded {
	key := ledger.FolderChange{Path: dir, Head: tree}
	loadedFolders.Lock()
	l, hit := loadedFolders.m[key]
	loadedFolders.Unlock()
	if hit {
		return l
	}
	l.skill, l.problems, _, l.ok = catalog.LoadChanged(fsys, dir, listingOptions)
	loadedFolders.Lock()
	if loadedFolders.m == nil || len(loadedFolders.m) >= maxLoadedFolders {
		loadedFolders.m = map[ledger.FolderChange]loaded{}
	}
	loadedFolders.m[key] = l
	loadedFolders.Unlock()
	return l
}

// namedIn returns the folder of the skill called name given the cached listing old, the
// skills of the changed folders and those folders; ok is false when a changed skill takes a
// name an unchanged one has, which only the whole listing settles, or old cannot be read.
func namedIn(old *lazyListing, name string, fresh []*catalog.Skill, changed map[string]bool) (string, bool) {
	kept := func(n string) (*catalog.Skill, bool) {
		s, ok := old.skill(n)
		if s != nil && changed[s.Dir] {
			s = nil
		}
		return s, ok
	}
	for _, f := range fresh {
		if s, ok := kept(f.Name); !ok || s != nil {
			return "", false
		}
	}
	if i := slices.IndexFunc(fresh, func(s *catalog.Skill) bool { return s.Name == name }); i >= 0 {
		return fresh[i].Dir, true
	}
	s, ok := kept(name)
	if s == nil || !ok {
		return "", ok
	}
	return s.Dir, true
}
