package skilltree

import (
	"github.com/skillgit/skillgit/gitstore"
)

// ChangedPaths lists the paths a working tree must update to go from tree a to tree b: the
// skill folders that differ, and the other top-level entries that differ.
func (st Trees) ChangedPaths(a, b gitstore.Hash) ([]string, error) {
	changes, outside, err := st.Changes(a, b)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range changes {
		paths = append(paths, f.Path)
	}
	if len(outside) == 0 {
		return paths, nil
	}
	for _, p := range outside {
		if st.IsSkillPath(p) {
			paths = append(paths, p)
		}
	}
	top, err := st.topLevelChanges(a, b)
	return append(paths, top...), err
}

// topLevelChanges lists the entries of two root trees that differ, except the skills folder
// when it is a top-level folder (its skill folders are listed one by one).
func (st Trees) topLevelChanges(a, b gitstore.Hash) ([]string, error) {
	ea, err := st.g.Objects().ReadTree(a)
	if err != nil {
		return nil, err
	}
	eb, err := st.g.Objects().ReadTree(b)
	if err != nil {
		return nil, err
	}
	seen := map[string]gitstore.TreeEntry{}
	for _, e := range ea {
		seen[e.Name] = e
	}
	var out []string
	for _, e := range eb {
		if o, ok := seen[e.Name]; !ok || o != e {
			out = append(out, e.Name)
		}
		delete(seen, e.Name)
	}
	for name := range seen {
		out = append(out, name)
	}
	kept := out[:0]
	for _, p := range out {
		if p != st.dir {
			kept = append(kept, p)
		}
	}
	return kept, nil
}
