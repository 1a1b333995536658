package lifecycle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// maxPolicyValue bounds how much of one configuration value a summary line shows.
const maxPolicyValue = 80

// policyDiff says what changes in the policy of r, the policy paths of its configuration,
// between two trees.
type policyDiff struct{ r *Repo }

// summary says what changes in the policy between two root trees: one line per
// configuration key that changes ("mode: manual -> assisted") and one per other policy file.
// It reads nothing when no policy path changed.
func (d policyDiff) summary(from, to gitstore.Hash) ([]string, error) {
	r := d.r
	var out []string
	for _, p := range r.Config.PolicyPaths() {
		f, changed, err := pathChange(r.book(), p, from, to)
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
		lines, err := configDiff(r.Git, f.Base, f.Head)
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

// configDiff lists the keys that differ between two versions of the configuration, given as
// blob ids (zero for none).
func configDiff(g *gitstore.Repo, from, to gitstore.Hash) ([]string, error) {
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
	return bounded(v, maxPolicyValue)
}

// flatConfig reads a configuration blob into its scalar values by dotted key; a list is one
// value. A blob that does not parse as YAML yields no keys.
func flatConfig(g *gitstore.Repo, h gitstore.Hash) (map[string]string, error) {
	if h.IsZero() {
		return map[string]string{}, nil
	}
	data, err := g.ReadBlob(h, policy.MaxConfigSize)
	if err != nil {
		return nil, err
	}
	return policy.Flatten(data), nil
}

// bulletList renders lines as a Markdown list.
func bulletList(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- " + l)
	}
	return b.String()
}

// commit is what commit c changed in the policy against its first parent; nil when it
// changed none, or what it changed cannot be read. Most commits change no policy: for them
// only the two root trees are read, and tops keeps the last ones read, so that a walk down
// the first-parent line reads each root tree once.
func (d policyDiff) commit(c *object.Commit, tops *topEntries) []string {
	r := d.r
	var parent gitstore.Hash
	if len(c.ParentHashes) > 0 {
		pc, err := r.Git.Commit(c.ParentHashes[0])
		if err != nil {
			return nil
		}
		parent = pc.TreeHash
	}
	if !d.touched(tops.of(r.Git, parent), tops.of(r.Git, c.TreeHash)) {
		return nil
	}
	lines, err := d.summary(parent, c.TreeHash)
	if err != nil {
		return nil
	}
	return lines
}

// touched reports whether a policy path may differ between two root trees, given the
// ids of their entries by name: a top-level one whose entry differs, or any other one.
func (d policyDiff) touched(a, b map[string]gitstore.Hash) bool {
	for _, p := range d.r.Config.PolicyPaths() {
		if strings.Contains(p, "/") || a[p] != b[p] {
			return true
		}
	}
	return false
}

// topEntries maps the names of root trees' entries to their ids, for the last two trees read.
type topEntries struct {
	trees [2]gitstore.Hash
	maps  [2]map[string]gitstore.Hash
	next  int
}

// of returns the entries of root tree tree, reading it unless it is one of the last two read.
func (t *topEntries) of(g *gitstore.Repo, tree gitstore.Hash) map[string]gitstore.Hash {
	for i, h := range t.trees {
		if h == tree && t.maps[i] != nil {
			return t.maps[i]
		}
	}
	out := map[string]gitstore.Hash{}
	if !tree.IsZero() {
		if entries, err := g.ReadTree(tree); err == nil {
			for _, e := range entries {
				out[e.Name] = e.Hash
			}
		}
	}
	t.trees[t.next], t.maps[t.next] = tree, out
	t.next = 1 - t.next
	return out
}
