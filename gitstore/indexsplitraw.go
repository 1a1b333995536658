package gitstore

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// splitRaw is a split index held as git lays it out: the shared index's entries kept as
// bytes, and the split file's own few entries decoded with the link that places them. An
// update reads and writes only the split file's entries and the entries of the paths it
// changes; the shared index, most of a large index, is neither decoded nor written again.
type splitRaw struct {
	version     uint32
	sharedID    Hash
	shared      *rawIndex
	sharedCount int
	// deleted and replaced are positions in the shared index, ascending; replacing holds
	// the entry that replaces each, with its name.
	deleted   []int
	replaced  []int
	replacing []*index.Entry
	// added are the split file's entries that replace no shared one, sorted.
	added []*index.Entry
}

// readSplitRaw reads the split index file b at path, whose link extension is link, with its
// shared index kept as bytes; false for one it leaves to readSplitIndex: another format, an
// unmerged entry, or anything it cannot vouch for.
func readSplitRaw(b, link []byte, path string) (*splitRaw, bool) {
	var own index.Index
	if len(link) < len(Hash{}) || !decodeIndexBytes(b, &own, true) {
		return nil, false
	}
	s := &splitRaw{version: own.Version}
	copy(s.sharedID[:], link)
	sb, err := readSharedIndex(filepath.Join(filepath.Dir(path), "sharedindex."+hex.EncodeToString(s.sharedID[:])))
	if err != nil || !bytes.Equal(sb[max(len(sb)-20, 0):], s.sharedID[:]) {
		return nil, false
	}
	ri, ok := parseRawIndex(sb)
	if !ok || ri.unmerged != "" {
		return nil, false
	}
	l, ok := parseLink(link, ri.count())
	if !ok || len(l.replaced) > len(own.Entries) {
		return nil, false
	}
	s.shared, s.sharedCount, s.deleted, s.replaced = ri, ri.count(), l.deleted, l.replaced
	for k, pos := range l.replaced {
		e := own.Entries[k]
		if _, gone := slices.BinarySearch(l.deleted, pos); gone || e.Name != "" && e.Name != ri.name(pos) {
			return nil, false
		}
		e.Name = ri.name(pos)
		s.replacing = append(s.replacing, e)
	}
	s.added = own.Entries[len(l.replaced):]
	for _, e := range own.Entries {
		if e.Stage != 0 {
			return nil, false
		}
	}
	for _, e := range s.added {
		if e.Name == "" {
			return nil, false
		}
	}
	return s, true
}

// entriesUnder returns the entries of the index at and below the prefixes, in order.
func (s *splitRaw) entriesUnder(prefixes []string) ([]*index.Entry, bool) {
	var out []*index.Entry
	for _, sp := range s.shared.spans(prefixes) {
		var ok bool
		if out, ok = s.appendShared(out, sp.lo, sp.hi); !ok {
			return nil, false
		}
	}
	for _, e := range s.added {
		if underAny(e.Name, prefixes, false) {
			out = append(out, e)
		}
	}
	return sortSplitEntries(out), true
}

// sortSplitEntries sorts entries by name, an added entry taking the place of a shared one
// of the same name, as git merges a split index.
func sortSplitEntries(es []*index.Entry) []*index.Entry {
	slices.SortStableFunc(es, func(a, b *index.Entry) int { return strings.Compare(a.Name, b.Name) })
	return slices.CompactFunc(es, func(a, b *index.Entry) bool { return a.Name == b.Name })
}

// setUnder makes the entries at and below the prefixes those of under, all of which lie
// there: a shared entry of a name under keeps is replaced, the other shared entries there are
// deleted, and the rest of under is added.
func (s *splitRaw) setUnder(prefixes []string, under []*index.Entry) {
	byName := make(map[string]*index.Entry, len(under))
	for _, e := range under {
		byName[e.Name] = e
	}
	deleted, replaced, replacing := s.deleted[:0:0], s.replaced[:0:0], s.replacing[:0:0]
	keep := func(pos int) bool { return !underAny(s.shared.name(pos), prefixes, false) }
	for _, pos := range s.deleted {
		if keep(pos) {
			deleted = append(deleted, pos)
		}
	}
	for k, pos := range s.replaced {
		if keep(pos) {
			replaced, replacing = append(replaced, pos), append(replacing, s.replacing[k])
		}
	}
	for _, sp := range s.shared.spans(prefixes) {
		for i := sp.lo; i < sp.hi; i++ {
			if e, ok := byName[s.shared.name(i)]; ok {
				replaced, replacing = append(replaced, i), append(replacing, e)
				delete(byName, e.Name)
				continue
			}
			deleted = append(deleted, i)
		}
	}
	added := slices.DeleteFunc(slices.Clone(s.added), func(e *index.Entry) bool { return underAny(e.Name, prefixes, false) })
	for _, e := range under {
		if byName[e.Name] == e {
			added = append(added, e)
		}
	}
	order := make([]int, len(replaced))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(replaced[a], replaced[b]) })
	s.replaced, s.replacing = make([]int, len(order)), make([]*index.Entry, len(order))
	for i, o := range order {
		s.replaced[i], s.replacing[i] = replaced[o], replacing[o]
	}
	slices.Sort(deleted)
	s.deleted, s.added = deleted, sortSplitEntries(added)
}

// changes is how many entries the split file holds or deletes: git writes a new shared
// index once they pass a fifth of it (splitIndex.maxPercentChange).
func (s *splitRaw) changes() int { return len(s.deleted) + len(s.replaced) + len(s.added) }

// all returns every entry of the index, decoded, for a new shared index.
func (s *splitRaw) all() ([]*index.Entry, bool) {
	out, ok := s.appendShared(make([]*index.Entry, 0, s.shared.count()+len(s.added)), 0, s.shared.count())
	if !ok {
		return nil, false
	}
	return sortSplitEntries(append(out, s.added...)), true
}

// appendShared appends the entries at the shared positions from lo to hi as the index has
// them: none for a deleted one, the replacing one for a replaced one, else the shared entry
// decoded; false for one that cannot be decoded.
func (s *splitRaw) appendShared(out []*index.Entry, lo, hi int) ([]*index.Entry, bool) {
	body := s.shared.b[:len(s.shared.b)-20]
	for i := lo; i < hi; i++ {
		if _, gone := slices.BinarySearch(s.deleted, i); gone {
			continue
		}
		if k, ok := slices.BinarySearch(s.replaced, i); ok {
			out = append(out, s.replacing[k])
			continue
		}
		e := &index.Entry{}
		if _, ok := decodeEntry(body, s.shared.text, s.shared.offs[i], s.shared.version, e); !ok {
			return nil, false
		}
		out = append(out, e)
	}
	return out, true
}
