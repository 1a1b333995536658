package gitstore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// linkSig is the signature of the split index extension: the index file holds the entries
// changed since git last wrote the shared index, sharedindex.<id> beside it, and the
// extension says which shared entries they replace and which are deleted.
const linkSig = "link"

// splitLink is a link extension: the id of the shared index, and the positions of its
// entries deleted and replaced, in order.
type splitLink struct {
	shared            Hash
	deleted, replaced []int
}

// parseLink reads a link extension's data: the shared index's id, then, unless the
// extension ends there, a delete bitmap and a replace bitmap in git's EWAH format, whose
// positions are below base, the shared index's number of entries.
func parseLink(data []byte, base int) (*splitLink, bool) {
	l := &splitLink{}
	if len(data) < len(l.shared) {
		return nil, false
	}
	data = data[copy(l.shared[:], data):]
	if len(data) == 0 {
		return l, true
	}
	var ok bool
	if l.deleted, data, ok = readEWAH(data, base); !ok {
		return nil, false
	}
	if l.replaced, data, ok = readEWAH(data, base); !ok || len(data) != 0 {
		return nil, false
	}
	return l, true
}

// readEWAH reads one serialized EWAH bitmap from the start of b and returns the positions
// of its set bits, ascending, all below limit, and the bytes after it. The bitmap is its
// size in bits, its number of 64-bit words, the words, and the position of the last marker
// word, all big endian. The words are runs: a marker word (bit 0 the bit of the clean run,
// bits 1-32 the run's length in words, bits 33-63 the number of literal words after the
// marker), then those literal words.
func readEWAH(b []byte, limit int) ([]int, []byte, bool) {
	if len(b) < 12 {
		return nil, nil, false
	}
	words := uint64(binary.BigEndian.Uint32(b[4:]))
	if words > uint64(len(b)-12)/8 {
		return nil, nil, false
	}
	ws, rest := b[8:8+8*words], b[12+8*words:]
	var set []int
	pos := uint64(0)
	for i := uint64(0); i < words; {
		marker := binary.BigEndian.Uint64(ws[8*i:])
		run, literals := (marker>>1)&(1<<32-1)*64, marker>>33
		if marker&1 != 0 {
			if pos+run > uint64(limit) {
				return nil, nil, false
			}
			for p := pos; p < pos+run; p++ {
				set = append(set, int(p))
			}
		}
		pos += run
		i++
		if literals > words-i {
			return nil, nil, false
		}
		for ; literals > 0; literals-- {
			w := binary.BigEndian.Uint64(ws[8*i:])
			for bit := range uint64(64) {
				if w>>bit&1 == 0 {
					continue
				}
				if pos+bit >= uint64(limit) {
					return nil, nil, false
				}
				set = append(set, int(pos+bit))
			}
			pos += 64
			i++
		}
	}
	return set, rest, true
}

// readSplitIndex reads the entries of the split index file b at path, which carries link:
// those of the shared index beside it with the file's own entries replacing, deleting and
// adding to them, as git merges them.
func readSplitIndex(b []byte, link []byte, path string, idx *index.Index) error {
	var own index.Index
	if !decodeIndexBytes(b, &own, true) {
		return unsupported(path, "split index of a format other than version 2 or 3; run `git update-index --no-split-index`")
	}
	if len(link) < len(Hash{}) {
		return fmt.Errorf("%s: the split index extension is malformed: %w", path, errBadIndex)
	}
	id := link[:len(Hash{})]
	sharedPath := filepath.Join(filepath.Dir(path), "sharedindex."+hex.EncodeToString(id))
	sb, err := readSharedIndex(sharedPath)
	if err != nil {
		return fmt.Errorf("%s: the shared index of the split index: %w; run `git update-index --no-split-index`", path, err)
	}
	var shared index.Index
	if !bytes.Equal(sb[max(len(sb)-20, 0):], id) {
		return fmt.Errorf("%s: %w", sharedPath, errBadIndex)
	}
	if !decodeIndexFast(sb, &shared) {
		if err := decodeIndex(bytes.NewReader(sb), &shared, sharedPath); err != nil {
			return err
		}
	}
	l, ok := parseLink(link, len(shared.Entries))
	if !ok {
		return fmt.Errorf("%s: the split index extension is malformed: %w", path, errBadIndex)
	}
	entries, ok := mergeSplit(shared.Entries, own.Entries, l)
	if !ok {
		return fmt.Errorf("%s: the split index does not fit its shared index: %w", path, errBadIndex)
	}
	idx.Version, idx.Entries = own.Version, entries
	return nil
}

// mergeSplit applies the split file's entries own to the shared index's entries base: the
// first of own replace the base entries l.replaced names, in order (an empty name keeps the
// base entry's), the base entries l.deleted names go, and the rest of own are added.
func mergeSplit(base, own []*index.Entry, l *splitLink) ([]*index.Entry, bool) {
	if len(l.replaced) > len(own) {
		return nil, false
	}
	merged := slices.Clone(base)
	for k, pos := range l.replaced {
		if pos >= len(merged) {
			return nil, false
		}
		e := own[k]
		if e.Name == "" {
			e.Name = base[pos].Name
		}
		merged[pos] = e
	}
	for _, pos := range l.deleted {
		if pos >= len(merged) {
			return nil, false
		}
		merged[pos] = nil
	}
	merged = slices.DeleteFunc(merged, func(e *index.Entry) bool { return e == nil })
	for _, e := range own[len(l.replaced):] {
		if e.Name == "" {
			return nil, false
		}
		merged = append(merged, e)
	}
	slices.SortStableFunc(merged, func(a, b *index.Entry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Stage, b.Stage))
	})
	// An entry added at the name and stage of a shared one takes its place, as in git.
	out := merged[:0]
	for _, e := range merged {
		if n := len(out); n > 0 && out[n-1].Name == e.Name && out[n-1].Stage == e.Stage {
			out[n-1] = e
			continue
		}
		out = append(out, e)
	}
	return out, true
}
