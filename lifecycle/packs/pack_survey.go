package packs

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"

	"github.com/skillgit/skillgit/lifecycle/policy"
)

// The kinds of skipped skills.
const (
	// SkipInvalid is a skill the validator refuses (or, with lenient on, agents cannot load).
	SkipInvalid = "invalid"
	// SkipUnsafe is a skill holding a symbolic link, a submodule or a name the path policy refuses.
	SkipUnsafe = "unsafe"
	// SkipConflict is a skill whose name belongs to another pack or to a skill of the repository.
	SkipConflict = "conflict"
	// SkipRefused is a skill whose proposal was refused.
	SkipRefused = "refused"
)

// Skipped is a skill of a pack that was not proposed, and why.
type Skipped struct {
	Skill  string `json:"skill"`
	Reason string `json:"reason"`
	Kind   string `json:"kind"`
}

// packSkill is one selected, storable skill of a pack, as the repository would store it.
type packSkill struct {
	name    string // the name it is stored under: the pack's name for it, after the prefix
	orig    string // the name the pack gives it
	file    string // its SKILL.md in the pack, for messages
	src     fs.FS  // where to read it from
	dir     string // its folder in src
	want    gitstore.Hash
	lenient []string // the reference rules it breaks, admitted leniently
}

// survey is what a pack holds, sorted out.
type survey struct {
	skills      []*packSkill
	skipped     []Skipped
	present     map[string]bool // every name the pack has, after the prefix, selected or not
	notSelected map[string]bool // the names the pack has that its include and exclude leave out
}

func (sv *survey) skip(name, kind, reason string) {
	sv.skipped = append(sv.skipped, Skipped{Skill: name, Kind: kind, Reason: reason})
}

// survey discovers the pack's skills, applies its selection and prefix, and sorts out the
// ones that can be proposed from the ones that are skipped, with why.
func (fp *fetchedPack) survey(p policy.Pack) (*survey, error) {
	root, err := fp.repo.Objects().Commit(fp.commit)
	if err != nil {
		return nil, err
	}
	fsys := fp.repo.Objects().TreeFS(root.TreeHash)
	found, problems, err := fp.discover(fsys)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", p.Name, err)
	}
	sv := &survey{skipped: []Skipped{}, present: map[string]bool{}, notSelected: map[string]bool{}}
	for dir, msgs := range problems {
		name := p.Prefix + path.Base(dir)
		sv.present[name] = true
		switch {
		case !selected(p, path.Base(dir)):
		case fp.unsafeIn(dir) != "":
			sv.skip(name, SkipUnsafe, fp.unsafeIn(dir))
		default:
			sv.skip(name, SkipInvalid, strings.Join(msgs, "; "))
		}
	}
	for _, s := range found {
		if err := fp.sortOut(p, fsys, s, sv); err != nil {
			return nil, err
		}
	}
	if len(found) == 0 && len(problems) == 0 {
		return nil, fmt.Errorf("pack %s: no skills in folder %s at %s; set the pack's path to its skills folder", p.Name, fp.folder, short7(fp.commit))
	}
	sort.Slice(sv.skipped, func(i, j int) bool { return sv.skipped[i].Skill < sv.skipped[j].Skill })
	return sv, nil
}

// discover loads the pack's skills as agents load them; problems maps each folder with a
// SKILL.md that does not load to what is wrong.
func (fp *fetchedPack) discover(fsys fs.FS) ([]*catalog.Skill, map[string][]string, error) {
	problems := map[string][]string{}
	if fp.single {
		s, ps := catalog.Load(fsys, fp.folder, catalog.Lenient, true)
		if s == nil {
			problems[fp.folder] = errorMessages(ps, fp.folder)
			return nil, problems, nil
		}
		return []*catalog.Skill{s}, problems, nil
	}
	res, err := catalog.Discover(fsys, fp.folder, catalog.Options{Mode: catalog.Lenient, FrontmatterOnly: true})
	if err != nil {
		return nil, nil, err
	}
	loaded := map[string]bool{}
	for _, s := range res.Skills {
		loaded[s.Dir] = true
	}
	for _, pr := range res.Problems {
		dir := pr.File
		if path.Base(dir) == catalog.FileName {
			dir = path.Dir(dir)
		}
		if !pr.Warning && !loaded[dir] && dir != fp.folder {
			problems[dir] = append(problems[dir], pr.Message)
		}
	}
	return res.Skills, problems, nil
}

// errorMessages are the messages of the error-level problems; a folder named "." is the
// pack's root, whose name no skill has to match.
func errorMessages(ps []catalog.Problem, dir string) []string {
	var out []string
	for _, p := range ps {
		if p.Warning || dir == "." && strings.Contains(p.Message, "does not match its folder") {
			continue
		}
		out = append(out, p.Message)
	}
	return out
}

// sortOut adds the loaded skill s to the survey, as a skill to propose or a skipped one.
func (fp *fetchedPack) sortOut(p policy.Pack, fsys fs.FS, s *catalog.Skill, sv *survey) error {
	name := p.Prefix + s.Name
	sv.present[name] = true
	if !selected(p, s.Name) {
		sv.notSelected[name] = true
		return nil
	}
	if fp.single && s.Dir != "." && s.Name != path.Base(s.Dir) {
		sv.skip(name, SkipInvalid, fmt.Sprintf("the skill in %s is named %q; a pack whose path is one skill's folder must name the skill like the folder", s.Dir, s.Name))
		return nil
	}
	if why := fp.unsafeIn(s.Dir); why != "" {
		sv.skip(name, SkipUnsafe, why)
		return nil
	}
	_, ps := catalog.Load(fsys, s.Dir, catalog.Strict, true)
	strict := errorMessages(ps, s.Dir)
	if len(strict) > 0 && !p.Lenient {
		sv.skip(name, SkipInvalid, fmt.Sprintf("%s; fix it upstream, or admit it with a warning: `skillgit pack update %s --lenient` "+
			"(or lenient: true on the pack in %s, for every update)", strings.Join(strict, "; "), p.Name, policy.ConfigFile))
		return nil
	}
	ps2 := &packSkill{name: name, orig: s.Name, file: s.File(), src: fsys, dir: s.Dir, lenient: strict}
	if p.Prefix == "" {
		want, err := gitstore.HashDir(fsys, s.Dir)
		if err != nil {
			return fmt.Errorf("pack %s: %s: %w", p.Name, s.Dir, err)
		}
		ps2.want = want
		sv.skills = append(sv.skills, ps2)
		return nil
	}
	if err := catalog.CheckSkillName(name); err != nil {
		sv.skip(name, SkipInvalid, fmt.Sprintf("with the prefix %q: %v", p.Prefix, err))
		return nil
	}
	e, _, err := fp.repo.Objects().EntryAt(mustRoot(fp), s.Dir)
	if err != nil {
		return err
	}
	root, folder, err := fp.rename(s.Dir, e.Hash, name)
	if err != nil {
		sv.skip(name, SkipInvalid, err.Error())
		return nil
	}
	ps2.src, ps2.dir, ps2.want = fp.repo.Objects().TreeFS(root), name, folder
	sv.skills = append(sv.skills, ps2)
	return nil
}

// mustRoot is the root tree of the fetched commit, which survey has already read.
func mustRoot(fp *fetchedPack) gitstore.Hash {
	c, err := fp.repo.Objects().Commit(fp.commit)
	if err != nil {
		return gitstore.ZeroHash
	}
	return c.TreeHash
}
