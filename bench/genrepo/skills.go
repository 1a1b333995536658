package genrepo

import (
	"fmt"
	"math/rand/v2"
	"path"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
)

// skill is one generated skill and the versions it went through on the publish branch.
type skill struct {
	name string
	// dir is the skill's folder relative to the skills folder: its name, or category/name.
	dir string
	// script is "", "run.sh" or "run.py".
	script string
	// versions is the stack of published versions, the current one last; rollbacks pop it.
	versions []int
	// folders holds the folder tree of each entry of versions.
	folders []gitstore.Hash
	// commits holds the commit that published each entry of versions.
	commits []gitstore.Hash
	// next is the version number a patch gets.
	next int
	// slot is the skill's index in the live list, or -1 once deleted.
	slot int
}

func newSkill(r *rand.Rand, name string) *skill {
	s := &skill{name: name, dir: name, next: 1, slot: -1}
	if r.IntN(50) == 0 {
		s.dir = path.Join(pick(r, categories), name)
	}
	switch r.IntN(20) {
	case 0:
		s.script = "run.sh"
	case 1:
		s.script = "run.py"
	}
	return s
}

func (s *skill) current() int { return s.versions[len(s.versions)-1] }

// files returns the files of version v of the skill, keyed by slash path inside its folder.
func (s *skill) files(seed uint64, v int) map[string][]byte {
	out := map[string][]byte{"SKILL.md": renderSkill(seed, s.name, v)}
	if s.script != "" {
		out["scripts/"+s.script] = renderScript(seed, s.name, s.script)
	}
	return out
}

// writeFolder stores version v of the skill and returns its folder tree.
func (s *skill) writeFolder(g *gitstore.Repo, seed uint64, v int) (gitstore.Hash, error) {
	md, err := g.Writes().WriteBlob(renderSkill(seed, s.name, v))
	if err != nil {
		return gitstore.ZeroHash, err
	}
	entries := []gitstore.TreeEntry{{Name: "SKILL.md", Mode: filemode.Regular, Hash: md}}
	if s.script != "" {
		sub, err := s.writeScripts(g, seed)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		entries = append(entries, gitstore.TreeEntry{Name: "scripts", Mode: filemode.Dir, Hash: sub})
	}
	h, err := g.Writes().WriteTree(entries)
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("skill %s: %w", s.name, err)
	}
	return h, nil
}

func (s *skill) writeScripts(g *gitstore.Repo, seed uint64) (gitstore.Hash, error) {
	blob, err := g.Writes().WriteBlob(renderScript(seed, s.name, s.script))
	if err != nil {
		return gitstore.ZeroHash, err
	}
	mode := filemode.Regular
	if path.Ext(s.script) == ".sh" {
		mode = filemode.Executable
	}
	return g.Writes().WriteTree([]gitstore.TreeEntry{{Name: s.script, Mode: mode, Hash: blob}})
}

// push records a newly published version.
func (s *skill) push(v int, folder, commit gitstore.Hash) {
	s.versions = append(s.versions, v)
	s.folders = append(s.folders, folder)
	s.commits = append(s.commits, commit)
}

// pop undoes the last change: it returns the commit that made it and the folder the skill
// goes back to.
func (s *skill) pop() (reverted, folder gitstore.Hash) {
	last := len(s.versions) - 1
	reverted = s.commits[last]
	s.versions, s.folders, s.commits = s.versions[:last], s.folders[:last], s.commits[:last]
	return reverted, s.folders[last-1]
}
