package genrepo

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
)

// importPack writes the first skills in one commit, as a pack import would, building the
// skills folder in one pass rather than one path replacement per skill.
func (gen *generator) importPack(names []string) error {
	top, err := gen.g.Objects().ReadTree(gen.skillsTree())
	if err != nil {
		return err
	}
	byCat := map[string][]gitstore.TreeEntry{}
	folders := make([]gitstore.Hash, len(names))
	for i, name := range names {
		s := newSkill(gen.r, name)
		if folders[i], err = s.writeFolder(gen.g, gen.opts.Seed, 1); err != nil {
			return err
		}
		e := gitstore.TreeEntry{Name: name, Mode: filemode.Dir, Hash: folders[i]}
		if cat := path.Dir(s.dir); cat != "." {
			byCat[cat] = append(byCat[cat], e)
		} else {
			top = append(top, e)
		}
		s.next = 2
		gen.addLive(s)
	}
	for cat, entries := range byCat {
		h, err := gen.g.Writes().WriteTree(entries)
		if err != nil {
			return err
		}
		top = append(top, gitstore.TreeEntry{Name: cat, Mode: filemode.Dir, Hash: h})
	}
	return gen.commitImport(top, folders)
}

func (gen *generator) commitImport(top []gitstore.TreeEntry, folders []gitstore.Hash) error {
	tree, err := gen.g.Writes().WriteTree(top)
	if err != nil {
		return err
	}
	root, err := gen.g.Writes().ReplacePath(gen.root, gen.opts.SkillsDir, &gitstore.TreeEntry{Mode: filemode.Dir, Hash: tree})
	if err != nil {
		return err
	}
	h, err := gen.commit(root, gen.importMsg(len(folders)), gen.tip)
	if err != nil {
		return err
	}
	// The import adds the first live skills, in the order of folders.
	for i, s := range gen.live {
		s.push(1, folders[i], h)
	}
	gen.tip, gen.root = h, root
	return nil
}

// skillsTree is the skills folder at the current tip, or the empty tree.
func (gen *generator) skillsTree() gitstore.Hash {
	e, ok, err := gen.g.Objects().EntryAt(gen.root, gen.opts.SkillsDir)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return gitstore.ZeroHash
	}
	return e.Hash
}

// replace returns the current root with the skill's folder set to folder, or removed when
// folder is nil.
func (gen *generator) replace(root gitstore.Hash, s *skill, folder *gitstore.Hash) (gitstore.Hash, error) {
	p := path.Join(gen.opts.SkillsDir, s.dir)
	if folder == nil {
		return gen.g.Writes().ReplacePath(root, p, nil)
	}
	return gen.g.Writes().ReplacePath(root, p, &gitstore.TreeEntry{Mode: filemode.Dir, Hash: *folder})
}

// draft writes the next version of a skill and the root tree that holds it on top of main.
func (gen *generator) draft(s *skill) (v int, folder, root gitstore.Hash, err error) {
	return gen.draftOn(gen.root, s)
}

func (gen *generator) create(revised bool) error {
	s := newSkill(gen.r, gen.pending[0])
	gen.pending = gen.pending[1:]
	return gen.patch(s, revised, false)
}

// patch runs a candidate through propose, an optional revise, approve and publish.
func (gen *generator) patch(s *skill, revised, auto bool) error {
	c := gen.newCandidate(s, auto)
	v, folder, root, err := gen.draft(s)
	if err != nil {
		return err
	}
	tip, err := gen.commit(root, c.propose(s.slot < 0), gen.tip)
	if err == nil && revised {
		if v, folder, root, err = gen.draft(s); err == nil {
			tip, err = gen.commit(root, c.revise(), tip)
		}
	}
	if err != nil {
		return err
	}
	if s.slot < 0 {
		gen.addLive(s)
	}
	pub, err := gen.approveAndPublish(c, root, tip)
	if err != nil {
		return err
	}
	s.push(v, folder, pub)
	return nil
}

func (gen *generator) approveAndPublish(c candidate, root, tip gitstore.Hash) (gitstore.Hash, error) {
	sig := gen.signature()
	if c.approverName != "" {
		sig.Name, sig.Email = c.approverName, c.approverEmail
	}
	appr, err := gen.commitAs(sig, root, c.approve(), tip)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	pub, err := gen.commit(root, c.publish(), gen.tip, appr)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	gen.tip, gen.root = pub, root
	return pub, nil
}

func (gen *generator) remove(s *skill) error {
	c := gen.newCandidate(s, false)
	c.change = "delete"
	root, err := gen.replace(gen.root, s, nil)
	if err != nil {
		return err
	}
	tip, err := gen.commit(root, c.proposeDelete(), gen.tip)
	if err != nil {
		return err
	}
	gen.dropLive(s)
	_, err = gen.approveAndPublish(c, root, tip)
	return err
}

// reject proposes a patch that is rejected; the rejected branch moves to the archive.
func (gen *generator) reject(s *skill) error {
	c := gen.newCandidate(s, false)
	_, _, root, err := gen.draft(s)
	if err != nil {
		return err
	}
	tip, err := gen.commit(root, c.propose(false), gen.tip)
	if err == nil {
		tip, err = gen.commit(root, c.reject(), tip)
	}
	gen.refs = append(gen.refs, gitstore.Ref{Name: "refs/skillgit/archive/" + c.id, Hash: tip})
	return err
}

// leaveOpen proposes a patch that nobody has reviewed yet.
func (gen *generator) leaveOpen(s *skill) error {
	c := gen.newCandidate(s, false)
	_, _, root, err := gen.draft(s)
	if err != nil {
		return err
	}
	tip, err := gen.commit(root, c.propose(false), gen.tip)
	gen.refs = append(gen.refs, gitstore.Ref{Name: "refs/heads/candidate/" + c.id, Hash: tip})
	return err
}

// rollback restores the version of a skill before its last change, or edits skills by hand
// when no skill has an earlier version yet.
func (gen *generator) rollback() error {
	for range 20 {
		s := gen.randomSkill()
		if len(s.versions) < 2 {
			continue
		}
		reverted, folder := s.pop()
		root, err := gen.replace(gen.root, s, &folder)
		if err != nil {
			return err
		}
		h, err := gen.commit(root, rollbackMsg(s.name, reverted), gen.tip)
		if err != nil {
			return err
		}
		gen.tip, gen.root = h, root
		return nil
	}
	return gen.manual()
}

// manual edits one to three skills in one plain commit, as someone using git directly would.
func (gen *generator) manual() error {
	n := 1 + gen.r.IntN(3)
	changed := map[*skill]gitstore.Hash{}
	versions := map[*skill]int{}
	root := gen.root
	var names []string
	for range n {
		s := gen.randomSkill()
		if _, dup := changed[s]; dup {
			continue
		}
		v, folder, r, err := gen.draftOn(root, s)
		if err != nil {
			return err
		}
		changed[s], versions[s], root = folder, v, r
		names = append(names, s.name)
	}
	h, err := gen.commit(root, manualMsg(gen.r, names), gen.tip)
	if err != nil {
		return err
	}
	for s, folder := range changed {
		s.push(versions[s], folder, h)
	}
	gen.tip, gen.root = h, root
	return nil
}

// draftOn writes the next version of a skill and a copy of root that holds it.
func (gen *generator) draftOn(root gitstore.Hash, s *skill) (int, gitstore.Hash, gitstore.Hash, error) {
	v := s.next
	s.next++
	folder, err := s.writeFolder(gen.g, gen.opts.Seed, v)
	if err != nil {
		return 0, folder, root, err
	}
	root, err = gen.replace(root, s, &folder)
	return v, folder, root, err
}

func (gen *generator) importMsg(n int) string {
	sha := fmt.Sprintf("%016x%016x%08x", gen.r.Uint64(), gen.r.Uint64(), gen.r.Uint32())
	p := pick(gen.r, people)
	return gitstore.FormatMessage(fmt.Sprintf("publish: import %d skills from pack community", n),
		"Initial import of the community pack after review.",
		[]gitstore.Trailer{
			{Key: "Skillgit-Action", Value: "publish"},
			{Key: "Skillgit-Pack", Value: "community@" + sha},
			{Key: "Skillgit-Risk", Value: "low"},
			{Key: "Skillgit-Audit", Value: "pass (ruleset 3, 0 findings)"},
			{Key: "Approved-By", Value: p.name + " <" + p.email + ">"},
		})
}

func manualMsg(r interface{ IntN(int) int }, names []string) string {
	verbs := []string{"Fix typos in", "Reword steps of", "Clarify examples in", "Update commands in"}
	return verbs[r.IntN(len(verbs))] + " " + strings.Join(names, ", ") + "\n"
}
