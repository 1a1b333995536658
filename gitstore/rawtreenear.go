package gitstore

import (
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A command reads several versions of one large folder (the channel's, a candidate's, the
// one a publish writes), each a few entries away from the others. The offsets of a version
// are taken from those of a kept version near it: the entries in the bytes both share at
// their start keep their offsets, those in the bytes both share at their end keep theirs
// moved by the difference in length, and only the entries between are scanned.

// nearOffsets returns the offsets of data, taken from the kept tree that shares the most
// bytes with it at its ends, when one shares at least half of them, else by a full scan.
func (c *rawTreeCache) nearOffsets(data string) ([]int32, bool) {
	if n, ok := c.nearest(data); ok {
		return deriveOffsets(data, n), true
	}
	return nil, false
}

// nearTree is a kept tree near another version of its folder: its bytes, its offsets, and
// how many bytes it shares with that version at their start and at their end.
type nearTree struct {
	b        string
	at       []int32
	pre, suf int
}

// nearest returns the kept tree whose offsets are taken and which shares the most bytes with
// data at its ends, at least half of data's; false for none.
func (c *rawTreeCache) nearest(data string) (nearTree, bool) {
	var kept []nearTree
	c.mu.Lock()
	for _, t := range c.byID {
		if t.offs.ready.Load() && t.offs.at != nil {
			kept = append(kept, nearTree{b: unsafe.String(unsafe.SliceData(t.b), len(t.b)), at: t.offs.at})
		}
	}
	c.mu.Unlock()
	var best nearTree
	most := len(data) / 2
	for _, k := range kept {
		if k.pre, k.suf = sharedEndsOf(k.b, data); k.pre+k.suf > most && k.b != data {
			best, most = k, k.pre+k.suf
		}
		if len(data)-most <= nearEnough {
			break // a version a few entries away: none can save more than a few scans
		}
	}
	return best, best.at != nil
}

// nearEnough is how few bytes of a version a kept one may leave to scan for the search of a
// nearer one to stop: comparing each kept version costs a pass over its bytes.
const nearEnough = 4 << 10

// deriveOffsets returns the offsets of data's entries from those of the kept tree n,
// scanning only the entries that do not lie whole in the bytes the two share at their start
// or end, and checking the order where the scanned entries meet the kept ones; nil as
// scanOffsets gives it.
func deriveOffsets(data string, n nearTree) []int32 {
	if len(data) > maxTreeSize {
		return nil
	}
	base, at, pre, suf := n.b, n.at, n.pre, n.suf
	// The entries of base that end within the shared start are data's too.
	i := 0
	for i+1 < len(at) && int(at[i+1]) <= pre {
		i++
	}
	out := make([]int32, 0, len(at)+8)
	out = append(out, at[:i]...)
	shift := len(data) - len(base)
	// Scan from there until an entry starts where one of base starts within the shared end.
	var prev string
	var prevDir bool
	if i > 0 {
		name, mode, _, _ := scanTreeEntry(data, int(at[i-1]))
		prev, prevDir = name, isDirMode(mode)
	}
	j := i // the first entry of base not yet passed
	for pos := int(at[i]); pos < len(data); {
		for j < len(at)-1 && int(at[j])+shift < pos {
			j++
		}
		if j < len(at)-1 && int(at[j])+shift == pos && int(at[j]) >= len(base)-suf {
			name, mode, _, err := scanTreeEntry(data, pos)
			if err != nil || len(out) > 0 && compareNames(prev, prevDir, name, isDirMode(mode)) >= 0 {
				return nil
			}
			for _, a := range at[j:] {
				out = append(out, a+int32(shift))
			}
			return out
		}
		name, mode, next, err := scanTreeEntry(data, pos)
		dir := isDirMode(mode)
		if err != nil || len(out) > 0 && compareNames(prev, prevDir, name, dir) >= 0 {
			return nil
		}
		out = append(out, int32(pos))
		prev, prevDir, pos = name, dir, next
	}
	return append(out, int32(len(data)))
}

// isDirMode reports whether a tree entry's mode is a folder's.
func isDirMode(mode uint32) bool { return filemode.FileMode(mode) == filemode.Dir }

// sharedEndsOf is sharedEnds for strings.
func sharedEndsOf(a, b string) (pre, suf int) {
	return sharedEnds(unsafe.Slice(unsafe.StringData(a), len(a)), unsafe.Slice(unsafe.StringData(b), len(b)))
}
