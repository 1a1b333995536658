package published

import (
	"cmp"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillgit/skillgit/catalog"
)

// discoverInstalled is catalog.Discover of the skills folder f, whose files fsys holds and
// whose listing is entries (nil when it could not be read), except
// that what Discover would make of a skill folder directly in f comes from the cache while the
// folder's SKILL.md keeps its stamp. The result is Discover's: the cache serves only skill
// folders that Discover loads one by one, and everything else (categories, links, files, a
// SKILL.md of f itself, skills whose names collide, whose warnings Discover words) still goes
// through Discover.
func discoverInstalled(f InstalledFolder, fsys fs.FS, entries []fs.DirEntry) (*catalog.Result, error) {
	c, ok := newInstalledCache(f.Path)
	if !ok || entries == nil || slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == catalog.FileName }) {
		return catalog.Discover(fsys, ".", installedOptions)
	}
	old := c.get(f.Path)
	now := time.Now()
	var known, misses []*cachedSkill
	var rest []fs.DirEntry
	for i, cs := range stampAll(f.Path, fsys, entries) {
		switch hit := old[entries[i].Name()]; {
		case cs == nil:
			rest = append(rest, entries[i])
		case hit != nil && hit.Stamp == cs.Stamp:
			hit.entry = cs.entry
			known = append(known, hit)
		default:
			misses = append(misses, cs)
			known = append(known, cs)
		}
	}
	loadAll(fsys, misses)
	res, err := mergeKnown(fsys, rest, known)
	if err != nil {
		return nil, err
	}
	if store, changed := toStore(known, now); changed || len(old) > 0 && len(known)-len(misses) != len(old) {
		c.put(f.Path, store)
	}
	return res, nil
}

// skillCandidate reports whether an entry of a skills folder is one Discover searches: a
// folder, not hidden.
func skillCandidate(e fs.DirEntry) bool {
	return e.IsDir() && !strings.HasPrefix(e.Name(), ".")
}

// loadAll loads the skill folders that the cache did not serve.
func loadAll(fsys fs.FS, skills []*cachedSkill) {
	parallel(len(skills), func(i int) {
		cs := skills[i]
		cs.fresh = true
		cs.Skill, cs.Problems = catalog.Load(fsys, cs.Dir, installedOptions.Mode, installedOptions.FrontmatterOnly)
	})
}

// parallel calls f for 0..n-1 on as many goroutines as there are processors.
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}

// mergeKnown runs Discover over the entries in rest and adds the known skill folders to its
// result, in Discover's order. A known skill whose name another skill has goes through
// Discover too, which reports the duplicate and keeps the first.
func mergeKnown(fsys fs.FS, rest []fs.DirEntry, known []*cachedSkill) (*catalog.Result, error) {
	for {
		res, err := catalog.Discover(listedFS{FS: fsys, top: rest}, ".", installedOptions)
		if err != nil {
			return nil, err
		}
		names := map[string]int{}
		for _, s := range res.Skills {
			names[s.Name]++
		}
		for _, cs := range known {
			if cs.Skill != nil {
				names[cs.Skill.Name]++
			}
		}
		keep := known[:0:0]
		for _, cs := range known {
			if cs.Skill != nil && names[cs.Skill.Name] > 1 {
				rest = append(rest, cs.entry)
			} else {
				keep = append(keep, cs)
			}
		}
		if len(keep) == len(known) {
			return addKnown(res, known), nil
		}
		slices.SortFunc(rest, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		known = keep
	}
}

// addKnown adds the known skill folders to res and sorts it as Discover does.
func addKnown(res *catalog.Result, known []*cachedSkill) *catalog.Result {
	for _, cs := range known {
		if cs.Skill != nil {
			res.Skills = append(res.Skills, cs.Skill)
		}
		res.Problems = append(res.Problems, cs.Problems...)
		res.Folders = append(res.Folders, cs.Dir)
	}
	slices.SortFunc(res.Skills, func(a, b *catalog.Skill) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Dir, b.Dir))
	})
	slices.SortStableFunc(res.Problems, func(a, b catalog.Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	slices.Sort(res.Folders)
	return res
}

// toStore returns the skill folders to cache: those the cache served, and those loaded now
// whose stamps are old enough to trust; changed reports that some of the latter are there.
func toStore(known []*cachedSkill, now time.Time) (store []*cachedSkill, changed bool) {
	store = make([]*cachedSkill, 0, len(known))
	for _, cs := range known {
		switch {
		case !cs.fresh:
			store = append(store, cs)
		case cs.Stamp.trusted(now):
			store = append(store, cs)
			changed = true
		}
	}
	return store, changed
}

// listedFS is a file system whose top folder lists only the entries top.
type listedFS struct {
	fs.FS
	top []fs.DirEntry
}

func (l listedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		return slices.Clone(l.top), nil
	}
	return fs.ReadDir(l.FS, name)
}

func (l listedFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(l.FS, name) }
func (l listedFS) ReadLink(name string) (string, error)   { return fs.ReadLink(l.FS, name) }
func (l listedFS) Stat(name string) (fs.FileInfo, error)  { return fs.Stat(l.FS, name) }
