package published

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/targetdir"
)

// InstalledSkill is one skill installed in an agent's skills folder.
type InstalledSkill struct {
	Skill *catalog.Skill
	// Scope is ScopeProject or ScopeGlobal.
	Scope string
	// Dir is the absolute folder of the skill, where an agent reads its files.
	Dir string
	// root is the skills folder it sits in, and rel the slash path of its files inside root
	// (the target of a symbolic link that stays inside root).
	root, rel string
}

// Shadowed is an installed skill hidden by an earlier one of the same name whose files
// differ. A copy of the same files, byte for byte, hides nothing and is not listed: the
// README's two agents read one skill from .claude/skills and .agents/skills alike.
type Shadowed struct {
	Name string
	// Dir is the folder of the hidden skill, By the folder of the skill that wins.
	Dir, By string
}

// Installed is the skills installed in agents' folders, the first of each name.
type Installed struct {
	Folders []InstalledFolder
	// Skills holds the skills that load, sorted by name.
	Skills []*InstalledSkill
	// Shadowed lists the skills hidden by an earlier skill of their name that holds other
	// files; identical copies are left out.
	Shadowed []Shadowed
	// Failures are skills that agents would skip: invalid, without a description, or behind a
	// symbolic link that leads out of their skills folder.
	Failures []PromptFailure
	// Problems are warnings about skills that load.
	Problems []catalog.Problem

	byName  map[string]*InstalledSkill
	bySkill map[*catalog.Skill]*InstalledSkill
	matcher *catalog.Matcher
	// digests compares the skills of one name, by skills folder, while the folders are read.
	digests map[string]*targetdir.Digests
}

// installedOptions is how installed skills are read: as agents load them, frontmatter only.
var installedOptions = catalog.Options{Mode: catalog.Lenient, FrontmatterOnly: true}

// LoadInstalled reads the skills of the folders InstalledFolders lists. A folder that does not
// exist is skipped.
func LoadInstalled(o InstalledOptions) (*Installed, error) {
	folders, err := InstalledFolders(o)
	if err != nil {
		return nil, err
	}
	in := &Installed{Folders: folders, byName: map[string]*InstalledSkill{}, bySkill: map[*catalog.Skill]*InstalledSkill{},
		digests: map[string]*targetdir.Digests{}}
	for _, f := range folders {
		in.loadFolder(f)
	}
	for _, d := range in.digests {
		d.Close()
	}
	in.digests = nil
	slices.SortFunc(in.Skills, func(a, b *InstalledSkill) int { return cmp.Compare(a.Skill.Name, b.Skill.Name) })
	return in, nil
}

// loadFolder adds the skills of one skills folder.
func (in *Installed) loadFolder(f InstalledFolder) {
	ok, err := existingFolder(f.Path)
	if err != nil {
		in.Problems = append(in.Problems, catalog.Problem{File: f.Path, Message: err.Error(), Warning: true})
	}
	if !ok {
		return
	}
	root, err := os.OpenRoot(f.Path)
	if err != nil {
		in.Problems = append(in.Problems, catalog.Problem{File: f.Path, Message: err.Error(), Warning: true})
		return
	}
	defer root.Close()
	fsys := root.FS()
	entries, _ := os.ReadDir(f.Path)
	res, err := discoverInstalled(f, fsys, entries)
	if err != nil {
		in.Problems = append(in.Problems, catalog.Problem{File: f.Path, Message: err.Error(), Warning: true})
		return
	}
	links := in.followLinks(f, fsys, res, entries)
	for _, p := range res.Problems {
		in.problem(f, p)
	}
	for _, s := range res.Skills {
		in.add(&InstalledSkill{Skill: s, Scope: f.Scope, Dir: filepath.Join(f.Path, filepath.FromSlash(s.Dir)), root: f.Path, rel: s.Dir})
	}
	for _, is := range links {
		in.add(is)
	}
}

// followLinks loads the skills behind the symbolic links directly in the skills folder f whose
// targets stay inside it, and reports the others as failures. It drops the warnings Discover
// made about those links. The entries are the listing of f.
func (in *Installed) followLinks(f InstalledFolder, fsys fs.FS, res *catalog.Result, entries []fs.DirEntry) []*InstalledSkill {
	var out []*InstalledSkill
	for _, e := range entries {
		name := e.Name()
		if e.Type()&fs.ModeSymlink == 0 || strings.HasPrefix(name, ".") {
			continue
		}
		res.Problems = slices.DeleteFunc(res.Problems, func(p catalog.Problem) bool { return p.File == name })
		link := filepath.Join(f.Path, name)
		rel, ok := insideFolder(f.Path, link)
		if !ok {
			in.Failures = append(in.Failures, PromptFailure{Name: name, Err: fmt.Errorf(
				"%s: symbolic link leads out of the skills folder %s (or nowhere), so it is not followed; "+
					"copy the skill into the folder instead", link, f.Path)})
			continue
		}
		if info, err := fs.Stat(fsys, rel); err != nil || !info.IsDir() {
			continue
		}
		s, problems := catalog.Load(fsys, rel, catalog.Lenient, true)
		res.Problems = append(res.Problems, problems...)
		if s != nil {
			out = append(out, &InstalledSkill{Skill: s, Scope: f.Scope, Dir: link, root: f.Path, rel: rel})
		}
	}
	return out
}

// problem records a problem of skills folder f: a warning as it is, an error as the failure
// of the skill it is about.
func (in *Installed) problem(f InstalledFolder, p catalog.Problem) {
	p.File = filepath.Join(f.Path, filepath.FromSlash(p.File))
	if p.Warning {
		in.Problems = append(in.Problems, p)
		return
	}
	name := filepath.Base(p.File)
	if name == catalog.FileName {
		name = filepath.Base(filepath.Dir(p.File))
	}
	in.Failures = append(in.Failures, PromptFailure{Name: name, Err: p})
}

// add keeps is unless a skill of its name came first; is is shadowed by that one unless
// both hold the same files.
func (in *Installed) add(is *InstalledSkill) {
	if first, dup := in.byName[is.Skill.Name]; dup {
		if !in.sameFiles(first, is) {
			in.Shadowed = append(in.Shadowed, Shadowed{Name: is.Skill.Name, Dir: is.Dir, By: first.Dir})
		}
		return
	}
	in.byName[is.Skill.Name] = is
	in.bySkill[is.Skill] = is
	in.Skills = append(in.Skills, is)
}

// Of returns the installed skill of s, one of the skills of in.
func (in *Installed) Of(s *catalog.Skill) *InstalledSkill { return in.bySkill[s] }

// Find returns the installed skill with the given name.
func (in *Installed) Find(name string) (*InstalledSkill, error) {
	if is, ok := in.byName[name]; ok {
		return is, nil
	}
	return nil, fmt.Errorf("%s: skill %w in the installed skills folders (%s)", name, ErrNotFound, in.folderList())
}

// folderList names the folders read, for messages.
func (in *Installed) folderList() string {
	names := make([]string, len(in.Folders))
	for i, f := range in.Folders {
		names[i] = f.Path
	}
	return strings.Join(names, ", ")
}

// Location is the SKILL.md of the skill, as the prompt block shows it to agents.
func (is *InstalledSkill) Location() string { return filepath.Join(is.Dir, catalog.FileName) }

// open returns the skill's folder as a file system confined to its skills folder, and the
// function that closes it.
func (is *InstalledSkill) open() (fs.FS, func() error, error) {
	root, err := os.OpenRoot(is.root)
	if err != nil {
		return nil, nil, err
	}
	sub, err := fs.Sub(root.FS(), is.rel)
	if err != nil {
		root.Close()
		return nil, nil, err
	}
	return sub, root.Close, nil
}

// Content returns the whole SKILL.md of the skill, bounded by catalog.MaxSkillFileSize.
func (is *InstalledSkill) Content() ([]byte, error) {
	fsys, done, err := is.open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", is.Skill.Name, err)
	}
	defer done()
	file := filepath.Join(is.Dir, catalog.FileName)
	info, err := fs.Lstat(fsys, catalog.FileName)
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", is.Skill.Name, file, err)
	}
	data, err := boundedfile.UpTo(fsys, catalog.FileName, catalog.MaxSkillFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", is.Skill.Name, file, err)
	}
	if len(data) > catalog.MaxSkillFileSize {
		return nil, fmt.Errorf("%s: %s is over the %d-byte limit", is.Skill.Name, file, catalog.MaxSkillFileSize)
	}
	return data, nil
}

// References returns the text files of the skill's references folder (catalog.References).
func (is *InstalledSkill) References() ([]catalog.Reference, error) {
	fsys, done, err := is.open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", is.Skill.Name, err)
	}
	defer done()
	refs, err := catalog.References(fsys)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", is.Skill.Name, path.Join(filepath.ToSlash(is.Dir), catalog.ReferencesDir), err)
	}
	return refs, nil
}

// sameFiles reports whether installed skills a and b hold the same files, byte for byte; a
// folder that cannot be read is not the same.
func (in *Installed) sameFiles(a, b *InstalledSkill) bool {
	da, err := in.digest(a)
	if err != nil {
		return false
	}
	db, err := in.digest(b)
	return err == nil && da == db
}

// digest is the content hash of installed skill is, from its folder's manifest when sync
// installed it and it is unchanged since.
func (in *Installed) digest(is *InstalledSkill) (string, error) {
	d, ok := in.digests[is.root]
	if !ok {
		var err error
		if d, err = targetdir.OpenDigests(is.root); err != nil {
			return "", err
		}
		in.digests[is.root] = d
	}
	return d.Digest(is.rel)
}
