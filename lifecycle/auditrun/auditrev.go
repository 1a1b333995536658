package auditrun

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// revRange is a parsed --rev argument: one revision, or a base and a head.
type revRange struct {
	base, head string // base is empty for a single revision
}

// parseRevRange parses "REV", "A..B" or "A...B"; an empty side means HEAD, as in git. Both
// ranges stand for the changes B made since it forked from A: git log A..B selects those
// commits, and git diff A...B shows what they change.
func parseRevRange(spec string) (revRange, error) {
	a, b, ok := strings.Cut(spec, "...")
	if !ok {
		a, b, ok = strings.Cut(spec, "..")
	}
	if ok && (strings.HasPrefix(b, ".") || strings.Contains(b, "..")) {
		return revRange{}, fmt.Errorf("revision range %q: pass REV, A..B or A...B", spec)
	}
	if !ok {
		if spec == "" {
			return revRange{}, fmt.Errorf("revision is empty; pass REV or A..B")
		}
		return revRange{head: spec}, nil
	}
	if a == "" {
		a = "HEAD"
	}
	if b == "" {
		b = "HEAD"
	}
	return revRange{base: a, head: b}, nil
}

// resolve returns the commit rev names, and its root tree.
func (r *Runner) resolve(rev string) (commit, tree gitstore.Hash, err error) {
	commit, err = r.Git.Refs().ResolveRevision(rev)
	if err != nil {
		return commit, tree, fmt.Errorf("%s: %w", rev, err)
	}
	c, err := r.Git.Objects().Commit(commit)
	if err != nil {
		return commit, tree, fmt.Errorf("%s: %w", rev, err)
	}
	return commit, c.TreeHash, nil
}

// ChangedSkills returns the skill folders under dir that differ between the root trees base
// and head, as repository paths, with their trees in head and base (zero where base has
// none). Only subtrees whose ids differ are read, so the cost grows with the change, not with
// the repository. Deleted skills are not returned: there is nothing left to audit.
func (r *Runner) ChangedSkills(base, head gitstore.Hash, dir string) ([]Item, error) {
	hb, ok, err := r.Git.Objects().EntryAt(head, dir)
	if err != nil || !ok || hb.Mode != filemode.Dir {
		return nil, err
	}
	var bb gitstore.Hash
	if base.IsZero() {
		// Nothing to compare with: every skill of head is new.
	} else if e, ok, err := r.Git.Objects().EntryAt(base, dir); err != nil {
		return nil, err
	} else if ok && e.Mode == filemode.Dir {
		bb = e.Hash
	}
	d := differ{g: r.Git}
	err = d.walk(dir, bb, hb.Hash, 0)
	return d.items, err
}

// differ walks two versions of a skills folder.
type differ struct {
	g     *gitstore.Repo
	items []Item
}

// walk compares folder p in its base and head versions.
func (d *differ) walk(p string, base, head gitstore.Hash, depth int) error {
	if base == head {
		return nil
	}
	entries, err := d.g.Objects().ReadTree(head)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if hasSkillFile(entries) {
		d.items = append(d.items, Item{Name: path.Base(p), Path: p, Tree: head, Base: base})
		return nil
	}
	if depth >= catalog.DefaultMaxDepth {
		return nil
	}
	old, err := d.g.Objects().ReadTree(base)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	before := make(map[string]gitstore.Hash, len(old))
	for _, e := range old {
		if e.Mode == filemode.Dir {
			before[e.Name] = e.Hash
		}
	}
	for _, e := range entries {
		if e.Mode != filemode.Dir || strings.HasPrefix(e.Name, ".") || before[e.Name] == e.Hash {
			continue
		}
		if err := d.walk(path.Join(p, e.Name), before[e.Name], e.Hash, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// hasSkillFile reports whether a folder holds a SKILL.md of any kind, which makes it a skill.
func hasSkillFile(entries []gitstore.TreeEntry) bool {
	for _, e := range entries {
		if e.Name == catalog.FileName {
			return true
		}
	}
	return false
}
