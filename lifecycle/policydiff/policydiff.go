// Package policydiff says what a change of a repository's policy changes: one line per
// configuration key that changes and one per other policy file, for a policy candidate, its
// review and the audit trail.
package policydiff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/termtext"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// maxPolicyValue bounds how much of one configuration value a summary line shows.
const maxPolicyValue = 80

// Differ says what changes in the policy paths of a repository's configuration between two
// trees, reading them through the ledger's book of the repository.
type Differ struct {
	g  *gitstore.Repo
	bk *ledger.Book
}

// New says what changes in the policy of repository g, which bk reads, under bk's
// configuration.
func New(g *gitstore.Repo, bk *ledger.Book) Differ { return Differ{g: g, bk: bk} }

// Summary says what changes in the policy between two root trees: one line per
// configuration key that changes ("mode: manual -> assisted") and one per other policy file.
// It reads nothing when no policy path changed.
func (d Differ) Summary(from, to gitstore.Hash) ([]string, error) {
	var out []string
	for _, p := range d.bk.Config.PolicyPaths() {
		f, changed, err := PathChange(d.bk, p, from, to)
		if err != nil || !changed {
			if err != nil {
				return nil, err
			}
			continue
		}
		if p != policy.ConfigFile {
			out = append(out, changedLine(p, f))
			continue
		}
		lines, err := ConfigLines(d.g, f.Base, f.Head)
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
	}
	return out, nil
}

// changedLine says that a policy path other than the configuration changed.
func changedLine(p string, f skilltree.Change) string {
	switch {
	case f.Base.IsZero():
		return "added " + p
	case f.Head.IsZero():
		return "removed " + p
	}
	return "changed " + p
}

// ConfigLines lists the keys that differ between two versions of the configuration, given as
// blob ids (zero for none).
func ConfigLines(g *gitstore.Repo, from, to gitstore.Hash) ([]string, error) {
	if from.IsZero() || to.IsZero() {
		return []string{changedLine(policy.ConfigFile, skilltree.Change{Base: from, Head: to})}, nil
	}
	a, err := flatConfig(g, from)
	if err != nil {
		return nil, err
	}
	b, err := flatConfig(g, to)
	if err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s: %s -> %s", k, shown(a, k), shown(b, k)))
		}
	}
	sort.Strings(out)
	if len(out) == 0 && from != to {
		out = append(out, "changed "+policy.ConfigFile+" (comments or layout only)")
	}
	return out, nil
}

// shown is a flattened value for a summary line.
func shown(m map[string]string, k string) string {
	v, ok := m[k]
	if !ok {
		return "(unset)"
	}
	return termtext.Cut(v, maxPolicyValue)
}

// flatConfig reads a configuration blob into its scalar values by dotted key; a list is one
// value. A blob that does not parse as YAML yields no keys.
func flatConfig(g *gitstore.Repo, h gitstore.Hash) (map[string]string, error) {
	if h.IsZero() {
		return map[string]string{}, nil
	}
	data, err := g.Objects().ReadBlob(h, policy.MaxConfigSize)
	if err != nil {
		return nil, err
	}
	return policy.Flatten(data), nil
}

// BulletList renders lines as a Markdown list.
func BulletList(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- " + l)
	}
	return b.String()
}

// Commit is what commit c changed in the policy against its first parent; nil when it
// changed none, or what it changed cannot be read. Most commits change no policy: for them
// only the two root trees are read, and tops keeps the last ones read, so that a walk down
// the first-parent line reads each root tree once.
func (d Differ) Commit(c *object.Commit, tops *TopEntries) []string {
	g := d.g
	var parent gitstore.Hash
	if len(c.ParentHashes) > 0 {
		pc, err := g.Objects().Commit(c.ParentHashes[0])
		if err != nil {
			return nil
		}
		parent = pc.TreeHash
	}
	if !d.touched(tops.of(g, parent), tops.of(g, c.TreeHash)) {
		return nil
	}
	lines, err := d.Summary(parent, c.TreeHash)
	if err != nil {
		return nil
	}
	return lines
}

// touched reports whether a policy path may differ between two root trees, given the
// ids of their entries by name: a top-level one whose entry differs, or any other one.
func (d Differ) touched(a, b map[string]gitstore.Hash) bool {
	for _, p := range d.bk.Config.PolicyPaths() {
		if strings.Contains(p, "/") || a[p] != b[p] {
			return true
		}
	}
	return false
}

// TopEntries maps the names of root trees' entries to their ids, for the last two trees
// read; its zero value is ready to use.
type TopEntries struct {
	trees [2]gitstore.Hash
	maps  [2]map[string]gitstore.Hash
	next  int
}

// of returns the entries of root tree tree, reading it unless it is one of the last two read.
func (t *TopEntries) of(g *gitstore.Repo, tree gitstore.Hash) map[string]gitstore.Hash {
	for i, h := range t.trees {
		if h == tree && t.maps[i] != nil {
			return t.maps[i]
		}
	}
	out := map[string]gitstore.Hash{}
	if !tree.IsZero() {
		if entries, err := g.Objects().ReadTree(tree); err == nil {
			for _, e := range entries {
				out[e.Name] = e.Hash
			}
		}
	}
	t.trees[t.next], t.maps[t.next] = tree, out
	t.next = 1 - t.next
	return out
}

// PathChange compares path p, a file or a folder, between two root trees, read through bk.
func PathChange(bk *ledger.Book, p string, baseTree, tipTree gitstore.Hash) (skilltree.Change, bool, error) {
	b, err := bk.EntryAt(baseTree, p)
	if err != nil {
		return skilltree.Change{}, false, err
	}
	h, err := bk.EntryAt(tipTree, p)
	if err != nil {
		return skilltree.Change{}, false, err
	}
	f := skilltree.Change{Path: p, Base: b.Hash, Head: h.Hash, Mode: h.Mode}
	if h.Hash.IsZero() {
		f.Mode = b.Mode
	}
	if f.Mode == filemode.Dir {
		f.Mode = 0
	}
	return f, b != h, nil
}
