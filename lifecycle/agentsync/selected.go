package agentsync

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// A sync file that selects skills by name or profile installs those alone, so a sync from a
// URL reads those alone: its cached clone holds no other skill (see partial.go).

// skillFolders finds, in the skills folder whose tree is skills and whose path is dir, the
// folder of each skill of names: dir/NAME when it holds a SKILL.md; else, searching the
// category folders as catalog.Discover does (hidden folders skipped, no skill inside a skill,
// catalog.DefaultMaxDepth levels), the first folder of that name by path that holds one.
// Folders the clone cannot read are not searched; a name not found is left out.
func skillFolders(o *gitstore.Objects, skills gitstore.Hash, dir string, names []string) map[string]string {
	found := map[string]string{}
	entries, err := o.ReadTree(skills)
	if err != nil {
		return found
	}
	var rest []string
	for _, n := range names {
		if e, ok := gitstore.FindEntry(entries, n); ok && e.Mode == filemode.Dir && holdsSkill(o, e.Hash) {
			found[n] = path.Join(dir, n)
		} else if !slices.Contains(rest, n) {
			rest = append(rest, n)
		}
	}
	if len(rest) > 0 {
		s := &folderSearch{o: o, want: rest, found: found}
		s.category(dir, entries, 0)
	}
	return found
}

// holdsSkill reports whether tree h holds a SKILL.md.
func holdsSkill(o *gitstore.Objects, h gitstore.Hash) bool {
	entries, err := o.ReadTree(h)
	if err != nil {
		return false
	}
	_, ok := gitstore.FindEntry(entries, catalog.FileName)
	return ok
}

// folderSearch looks through category folders for the skills of want not found yet.
type folderSearch struct {
	o     *gitstore.Objects
	want  []string
	found map[string]string
}

// category searches the folder p, whose entries are given, depth levels below the skills
// folder.
func (s *folderSearch) category(p string, entries []gitstore.TreeEntry, depth int) {
	if depth >= catalog.DefaultMaxDepth {
		return
	}
	for _, e := range entries {
		if e.Mode != filemode.Dir || strings.HasPrefix(e.Name, ".") {
			continue
		}
		sub, err := s.o.ReadTree(e.Hash)
		if err != nil {
			continue
		}
		child := path.Join(p, e.Name)
		if _, ok := gitstore.FindEntry(sub, catalog.FileName); !ok {
			s.category(child, sub, depth+1)
			continue
		}
		if _, done := s.found[e.Name]; !done && slices.Contains(s.want, e.Name) {
			s.found[e.Name] = child
		}
	}
}

// selectedCatalog lists, of the skills folder dir of root tree root, the skills names
// selects, as published.CatalogAt lists them all: frontmatter only, leniently.
func selectedCatalog(g *gitstore.Repo, root gitstore.Hash, dir string, names []string) (*catalog.Result, error) {
	e, ok, err := g.Objects().EntryAt(root, dir)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return &catalog.Result{}, err
	}
	folders := skillFolders(g.Objects(), e.Hash, path.Clean(dir), names)
	fsys := g.Objects().TreeFS(root)
	res := &catalog.Result{}
	for _, n := range names {
		p, ok := folders[n]
		if !ok || slices.Contains(res.Folders, p) {
			continue
		}
		res.Folders = append(res.Folders, p)
		s, problems := catalog.Load(fsys, p, catalog.Lenient, true)
		res.Problems = append(res.Problems, problems...)
		if s != nil {
			res.Skills = append(res.Skills, s)
		}
	}
	slices.Sort(res.Folders)
	slices.SortFunc(res.Skills, func(a, b *catalog.Skill) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Dir, b.Dir))
	})
	return res, nil
}
