package gitstore

import (
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// MergeTrees merges two trees that both descend from base, one tree entry
// at a time, and returns the merged root tree and the slash paths at which
// the two sides made different changes, sorted.
//
// For every entry name, when theirs equals base or ours equals theirs (the
// same id and mode) ours is kept; when ours equals base theirs is taken,
// so a deletion on one side wins over no change on the other; when ours
// and theirs are both folders, and base is a folder too or has no such
// entry, the folders are merged in turn; anything else is a conflict at
// that path. File contents are never merged line by line: two different
// edits of one file conflict. A subtree whose id is the same on the sides
// that decide it is never read, so the cost grows with the changed paths,
// not with the size of the trees. Only the new trees are written, and a
// folder the merge leaves empty is dropped from its parent.
//
// Any of base, ours and theirs may be ZeroHash, the empty tree. A clean
// merge never returns ZeroHash: a merge that empties the root returns the
// empty tree. When there are conflicts the returned tree is ZeroHash.
func (r *Writes) MergeTrees(base, ours, theirs Hash) (Hash, []string, error) {
	m := &treeMerge{r: r}
	root, err := m.entry("", rootEntry(base), rootEntry(ours), rootEntry(theirs))
	switch {
	case err != nil:
		return ZeroHash, nil, err
	case len(m.conflicts) > 0:
		slices.Sort(m.conflicts)
		return ZeroHash, m.conflicts, nil
	case root.Hash.IsZero():
		h, err := r.writeTree(nil)
		return h, nil, err
	}
	return root.Hash, nil, nil
}

// treeMerge is the state of one MergeTrees call.
type treeMerge struct {
	r         *Writes
	conflicts []string
}

// rootEntry turns a root tree id into a folder entry; the empty tree is
// no entry at all.
func rootEntry(h Hash) TreeEntry {
	if h.IsZero() || h == emptyTree {
		return TreeEntry{}
	}
	return TreeEntry{Mode: filemode.Dir, Hash: h}
}

// absent reports whether e stands for a missing entry.
func absent(e TreeEntry) bool { return e.Mode == 0 && e.Hash.IsZero() }

// sameEntry compares what an entry holds, not its name.
func sameEntry(a, b TreeEntry) bool { return a.Hash == b.Hash && a.Mode == b.Mode }

// entry merges one entry at slash path p; b, o and t are the base, ours and
// theirs versions, zero when missing. The result is zero when the entry is
// to be missing, or when it conflicts.
func (m *treeMerge) entry(p string, b, o, t TreeEntry) (TreeEntry, error) {
	switch {
	case sameEntry(t, b) || sameEntry(o, t):
		return o, nil
	case sameEntry(o, b):
		return t, nil
	case o.isDir() && t.isDir() && (b.isDir() || absent(b)):
		h, err := m.tree(p, b.Hash, o.Hash, t.Hash)
		if err != nil || h.IsZero() {
			return TreeEntry{}, err
		}
		return TreeEntry{Name: o.Name, Mode: filemode.Dir, Hash: h}, nil
	}
	m.conflicts = append(m.conflicts, p)
	return TreeEntry{}, nil
}

// tree merges three folders at slash path p and writes the result. It
// returns ZeroHash for a folder left empty, and writes nothing once a
// conflict has been found, since the result will not be used.
func (m *treeMerge) tree(p string, base, ours, theirs Hash) (Hash, error) {
	var sides [3][]TreeEntry
	for i, h := range []Hash{base, ours, theirs} {
		entries, err := (*Objects)(m.r).readTree(h)
		if err != nil {
			return ZeroHash, err
		}
		sides[i] = entries
	}
	out, err := m.entries(p, sides[0], sides[1], sides[2])
	if err != nil || len(out) == 0 || len(m.conflicts) > 0 {
		return ZeroHash, err
	}
	slices.SortFunc(out, compareEntries)
	return m.r.writeTree(out)
}

// entries merges the entries of three folders at slash path p. It walks
// ours and theirs side by side in git order, and looks base up only for
// names whose entries differ between them; a name deleted on both sides
// is never met, as it should be.
func (m *treeMerge) entries(p string, base, ours, theirs []TreeEntry) ([]TreeEntry, error) {
	out := make([]TreeEntry, 0, max(len(ours), len(theirs)))
	var paired pairSet
	for i, j := 0, 0; i < len(ours) || j < len(theirs); {
		o, t, single := nextPair(ours, theirs, &i, &j)
		switch {
		case o == t:
			out = append(out, o)
			continue
		case single && !absent(o) && !absent(t) && paired.repeat(o.Name):
			continue
		}
		name := o.Name
		if name == "" {
			name = t.Name
		}
		e, err := m.entry(joinPath(p, name), lookupEntry(base, name), o, t)
		if err != nil {
			return nil, err
		}
		if !absent(e) {
			e.Name = name
			out = append(out, e)
		}
	}
	return out, nil
}

// pairSet holds the names that are a file on one side and a folder on the
// other: the walk meets each of them twice, in two places.
type pairSet map[string]bool

// repeat records name and reports whether it was recorded before.
func (s *pairSet) repeat(name string) bool {
	if (*s)[name] {
		return true
	}
	if *s == nil {
		*s = pairSet{}
	}
	(*s)[name] = true
	return false
}

// nextPair returns the next entry of ours and of theirs in git order,
// advancing *i and *j. When only one side has an entry at this position,
// single is true and the other side's entry of the same name, if it has
// one of the other kind elsewhere, is looked up.
func nextPair(ours, theirs []TreeEntry, i, j *int) (o, t TreeEntry, single bool) {
	c := 0
	switch {
	case *i == len(ours):
		c = 1
	case *j == len(theirs):
		c = -1
	default:
		c = compareEntries(ours[*i], theirs[*j])
	}
	switch {
	case c == 0:
		o, t = ours[*i], theirs[*j]
		*i, *j = *i+1, *j+1
		return o, t, false
	case c < 0:
		o = ours[*i]
		*i++
		return o, lookupEntry(theirs, o.Name), true
	}
	t = theirs[*j]
	*j++
	return lookupEntry(ours, t.Name), t, true
}

// lookupEntry returns the entry called name, or a zero entry.
func lookupEntry(entries []TreeEntry, name string) TreeEntry {
	if i, ok := findEntry(entries, name); ok {
		return entries[i]
	}
	return TreeEntry{}
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
