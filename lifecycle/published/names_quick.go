package published

import (
	"bytes"
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
	changes, stray, err := ledger.DiffFolders(ledger.StoreOf(g), prev, e.Hash)
	if err != nil || len(stray) > 0 || len(changes) > maxQuick {
		return "", false
	}
	fresh, changed, ok := changedSkills(g.Objects().TreeFS(e.Hash), changes)
	if !ok {
		return "", false
	}
	dir, ok := namedIn(&lazyListing{cache: cache, tree: prev}, name, fresh, changed)
	if ok && dir != "" {
		dir = path.Join(skillsDir, dir)
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

// lazyListing is the listing cached for tree, read only as far as lookups need. A single
// lookup in a large listing looks for the name's bytes in the file and decodes it only when
// they are there; once a process has looked up a few names in one listing (a batch of
// publishes looks up every skill it publishes), it decodes the listing and keeps it.
type lazyListing struct {
	cache catalogCache
	tree  gitstore.Hash
	data  []byte
	res   *catalog.Result
}

// Lookups in one listing scan its bytes at most scansBeforeDecode times in a process before it
// is decoded; a listing of less than decodeBelow bytes is decoded at once.
const (
	scansBeforeDecode = 4
	decodeBelow       = 1 << 20
)

// decodedListing is the cached listing decoded last, shared and never changed, and how often
// the bytes of the one being looked up were scanned.
var decodedListing = struct {
	sync.Mutex
	tree  gitstore.Hash
	res   *catalog.Result
	scans int
}{}

// skill returns the skill called n in the listing, nil for none; ok is false when the
// listing cannot be read.
func (l *lazyListing) skill(n string) (*catalog.Skill, bool) {
	if l.res == nil {
		l.res = l.kept()
	}
	if l.res == nil {
		if l.data == nil {
			data, ok := l.cache.raw(l.tree)
			if !ok {
				return nil, false
			}
			l.data = data
		}
		if l.scan() && !bytes.Contains(l.data, []byte(n)) {
			return nil, true
		}
		res, ok := decodeCatalog(l.data)
		if !ok || !cacheable(res) {
			return nil, false
		}
		l.res = res
		decodedListing.Lock()
		decodedListing.tree, decodedListing.res = l.tree, res
		decodedListing.Unlock()
	}
	return skillNamed(l.res, n), true
}

// kept returns the listing as decoded before in this process, or nil.
func (l *lazyListing) kept() *catalog.Result {
	decodedListing.Lock()
	defer decodedListing.Unlock()
	if decodedListing.tree == l.tree {
		return decodedListing.res
	}
	return nil
}

// scan reports whether a lookup should scan the listing's bytes rather than decode it.
func (l *lazyListing) scan() bool {
	if len(l.data) < decodeBelow {
		return false
	}
	decodedListing.Lock()
	defer decodedListing.Unlock()
	if decodedListing.tree != l.tree {
		decodedListing.tree, decodedListing.res, decodedListing.scans = l.tree, nil, 0
	}
	decodedListing.scans++
	return decodedListing.scans <= scansBeforeDecode
}
