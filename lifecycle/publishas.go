package lifecycle

import (
	"errors"
	"fmt"
	"path"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// PublishAs publishes candidate id like Publish, under the skill name as: the folder lands
// at as, next to where the candidate proposed it, and the name in its SKILL.md frontmatter
// becomes as, every other byte kept. Only a candidate that creates a new skill can be
// published so, and only under a name that neither the publish branch nor another open
// candidate uses. The audit runs on the renamed folder; the candidate's approvals count, as
// the rename changes only the name. The publish commit records the name in its
// Skillgit-Published-As trailer.
func (r *Repo) PublishAs(id, channel, as string, o ActOptions) (*Result, error) {
	if err := catalog.CheckSkillName(as); err != nil {
		return nil, fmt.Errorf("--as %q: %w", as, err)
	}
	return publish(r, id, channel, as, o)
}

// renamable refuses to publish the candidate under the name as when it does not create a new
// skill, already has that name, or another open candidate proposes a skill of that name.
func (p *publication) renamable() error {
	ch, c, as := p.ch, p.c, p.as
	if c.Change != ChangeCreate {
		return fmt.Errorf("%s: %w: --as publishes a new skill under another name, and candidate %s is a %s of the existing skill %s; publish it without --as, or propose the skill under the new name",
			ch.ID, ErrRefused, ch.ID, c.Change, c.Skill)
	}
	if as == c.Skill {
		return fmt.Errorf("%s: candidate %s already proposes the skill %s; publish it without --as", ch.ID, ch.ID, as)
	}
	others, err := p.t.r.book().OpenOfSkill(as)
	if err != nil {
		return err
	}
	for _, o := range others {
		if o.ID != ch.ID {
			return fmt.Errorf("%s: %w: open candidate %s proposes a skill named %s; choose another name, or reject that candidate first (`skillgit reject %s`)",
				as, ErrConflict, o.ID, as, o.ID)
		}
	}
	return nil
}

// prepareAs plans the publish of the candidate onto start under the name as: the one
// new skill folder it creates, renamed, placed at as. It refuses a candidate that changes
// anything outside its scope or anything but one new folder, and a name start already holds.
func (p planner) prepareAs(ch *ledger.Chain, c *Candidate, start gitstore.Hash, target, as string) (*merge, *Candidate, error) {
	r := p.r
	if err := catalog.CheckSkillName(as); err != nil {
		return nil, nil, fmt.Errorf("%s: %w: cannot publish it as %q: %v", ch.ID, ErrRefused, as, err)
	}
	m, err := p.plan(ch, start)
	if err != nil {
		return nil, nil, err
	}
	if err := m.scope.refuse(ch.ID, "publish"); err != nil {
		return nil, nil, err
	}
	fs := m.scope.folders
	if len(fs) != 1 || fs[0].Path != c.Path || !fs[0].Base.IsZero() || fs[0].Head.IsZero() || fs[0].Mode != 0 {
		return nil, nil, fmt.Errorf("%s: %w: --as publishes a candidate that creates one new skill folder, and candidate %s does not (it changes %s)",
			ch.ID, ErrRefused, ch.ID, namePaths(m.scope.Changed))
	}
	dest := path.Join(path.Dir(c.Path), as)
	if _, ok, err := r.git.Objects().EntryAt(m.startTree, dest); err != nil {
		return nil, nil, err
	} else if ok {
		return nil, nil, fmt.Errorf("%s: %w: %s already has %s; choose another name with --as (`skillgit list` shows the published skills)",
			as, ErrConflict, gitstore.ShortRef(target), dest)
	}
	mode := catalog.Strict
	if c.Lenient != "" {
		mode = catalog.Lenient // admitted by --lenient: held to the same rules renamed
	}
	head, err := renamedFolder(r.git, fs[0].Head, c.Path, as, mode)
	if err != nil {
		return nil, nil, err
	}
	tree, err := r.git.Writes().ReplacePath(m.startTree, dest, skilltree.DirEntry(head))
	if err != nil {
		return nil, nil, err
	}
	renamed := *c
	renamed.Path = dest
	out := &merge{scope: m.scope, startTree: m.startTree, tree: tree, changes: []skilltree.Change{{Path: dest, Head: head}}}
	if err := treesOf(r).Clash(out.startTree, out.tree, out.changes, target); err != nil {
		return nil, nil, err
	}
	return out, &renamed, nil
}

// renamedFolder writes a copy of the skill folder tree (found at dir) whose SKILL.md
// frontmatter names it as, and returns the copy's tree. The result must be a valid skill
// named as under the rules of mode, those the candidate was admitted under; a frontmatter
// whose name the rewrite cannot replace reliably is refused rather than published under a
// wrong name.
func renamedFolder(g *gitstore.Repo, tree gitstore.Hash, dir, as string, mode catalog.Mode) (gitstore.Hash, error) {
	file := dir + "/" + catalog.FileName
	e, ok, err := g.Objects().EntryAt(tree, catalog.FileName)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if !ok || !e.Mode.IsFile() {
		return gitstore.ZeroHash, fmt.Errorf("%s: %w: not a regular file; it cannot be renamed", file, ErrRefused)
	}
	data, err := g.Objects().ReadBlob(e.Hash, catalog.MaxSkillFileSize)
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("%s: %w", file, err)
	}
	out, err := catalog.RenameSkill(data, as)
	if err == nil {
		err = checkRenamed(out, as, mode)
	}
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("%s: %w: cannot publish it as %s: %v; propose the skill under the new name instead (`skillgit propose %s --from DIR`)",
			file, ErrRefused, as, err, as)
	}
	blob, err := g.Writes().WriteBlob(out)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return g.Writes().ReplacePath(tree, catalog.FileName, &gitstore.TreeEntry{Mode: e.Mode, Hash: blob})
}

// checkRenamed requires data to be a SKILL.md that validates as the skill as under mode.
func checkRenamed(data []byte, as string, mode catalog.Mode) error {
	s, problems := catalog.Parse(as, data, mode)
	for _, p := range problems {
		if !p.Warning {
			return errors.New(p.Message)
		}
	}
	if s == nil || s.Name != as {
		return fmt.Errorf("after the rewrite the frontmatter does not name the skill %s", as)
	}
	return nil
}

// published plans the publish that the publish merge ci records onto r's tip: under the
// name of its Skillgit-Published-As trailer when it has one. A renamed publish that skillgit
// would refuse is returned as the reason why.
func (p planner) published(ch *ledger.Chain, ci ledger.Commit) (*merge, string, error) {
	r := p.r
	target := r.branch
	if ci.Claims.Get(keyChannel) == "canary" {
		target = canaryRef
	}
	as := ci.Claims.Get(keyPublishedAs)
	if as == "" {
		return p.publishedMerge(ch, target)
	}
	c, err := r.book().CandidateOf(ch, false)
	if err != nil {
		return nil, "", err
	}
	if c.Change != ChangeCreate {
		return nil, fmt.Sprintf("publishes candidate %s, a %s, under another name, which only a new skill can be", ch.ID, c.Change), nil
	}
	m, renamed, err := p.prepareAs(ch, c, r.tip, target, as)
	if errors.Is(err, ErrRefused) || errors.Is(err, ErrConflict) {
		return nil, fmt.Sprintf("publishes candidate %s as %s, which skillgit refuses: %v", ch.ID, as, err), nil
	}
	if err == nil {
		m.renamedPath = renamed.Path
	}
	return m, "", err
}

// publishedMerge plans the publish of the candidate onto r's tip, a commit of the channel
// target, as published does for a publish under the candidate's own name: one that
// skillgit would refuse as stale or as giving a name a second folder is returned as the reason
// why.
func (p planner) publishedMerge(ch *ledger.Chain, target string) (*merge, string, error) {
	r := p.r
	m, err := p.plan(ch, r.tip)
	if err != nil {
		return nil, "", err
	}
	if len(m.conflicts) > 0 {
		return nil, fmt.Sprintf("publishes candidate %s, whose folder %s changed on %s since the candidate's base; `skillgit rebase %s` brings the candidate up to date",
			ch.ID, m.conflicts[0].Path, gitstore.ShortRef(target), ch.ID), nil
	}
	if err := treesOf(r).Clash(m.startTree, m.tree, m.changes, target); errors.Is(err, ErrConflict) {
		return nil, fmt.Sprintf("publishes candidate %s, which skillgit refuses: %v", ch.ID, err), nil
	} else if err != nil {
		return nil, "", err
	}
	return m, "", nil
}
