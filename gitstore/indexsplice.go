package gitstore

import (
	"crypto/sha1"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// rawIndex is an index file of version 2 or 3 kept as its bytes with the offset of each
// entry. An update decodes and re-encodes only the entries under the paths it changes and
// copies every other entry byte for byte, so that its cost in a checkout of many skills is
// a sequential copy and one checksum, not a decode and an encode of every entry.
type rawIndex struct {
	b       []byte // the whole file, checksum included
	text    string // b without its checksum, as the string entry names are cut from
	version uint32
	// offs holds the offset of each entry, and last the end of the entries.
	offs []int
	// unmerged is the name of the first entry at a stage other than 0, or "".
	unmerged string
}

// parseRawIndex reads the entry offsets of an index file b of version 2 or 3, in order and
// without an extension git requires readers to understand; false
// for one it leaves to the decoders.
func parseRawIndex(b []byte) (*rawIndex, bool) {
	if len(b) < 32 || string(b[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(b[4:8])
	count := binary.BigEndian.Uint32(b[8:12])
	if version != 2 && version != 3 || uint64(count) > uint64(len(b)/entryFixedSize) {
		return nil, false
	}
	// The checksum is not verified, as git does not on reading (only `git fsck` does): it
	// would cost a hash of the whole file, 15 ms at 100,000 skills, and the file is only ever
	// replaced whole, under its lock. Git's index.skipHash leaves it zero.
	body := b[:len(b)-20]
	ri := &rawIndex{b: b, text: unsafe.String(unsafe.SliceData(body), len(body)), version: version, offs: make([]int, count+1)}
	pos := 12
	prev := ""
	for i := range int(count) {
		next, ok := skipIndexEntry(body, pos, version)
		if !ok {
			return nil, false
		}
		ri.offs[i] = pos
		name, stage, ok := ri.entryName(pos, next)
		if !ok || name < prev {
			return nil, false
		}
		if stage != 0 && ri.unmerged == "" {
			ri.unmerged = name
		}
		prev, pos = name, next
	}
	ri.offs[count] = pos
	if !ri.extensionsKnown() {
		return nil, false
	}
	return ri, true
}

// entryName returns the name and stage of the entry from pos to next.
func (ri *rawIndex) entryName(pos, next int) (string, int, bool) {
	flags := binary.BigEndian.Uint16(ri.b[pos+60:])
	name := pos + entryFixedSize
	if flags&entryExtendedFlag != 0 {
		if ri.version < 3 {
			return "", 0, false
		}
		name += 2
	}
	end := strings.IndexByte(ri.text[name:next], 0)
	if end <= 0 {
		return "", 0, false
	}
	return ri.text[name : name+end], int(flags >> 12 & 0x3), true
}

// count is the number of entries.
func (ri *rawIndex) count() int { return len(ri.offs) - 1 }

// name returns the name of entry i.
func (ri *rawIndex) name(i int) string {
	n, _, _ := ri.entryName(ri.offs[i], ri.offs[i+1])
	return n
}

// extensions returns the bytes from the end of the entries to the checksum.
func (ri *rawIndex) extensions() []byte { return ri.b[ri.offs[ri.count()] : len(ri.b)-20] }

// extensionsKnown reports whether the extensions are well formed and none is one git
// requires readers to understand (its signature starts with a lower-case letter).
func (ri *rawIndex) extensionsKnown() bool {
	ext := ri.extensions()
	for len(ext) > 0 {
		if len(ext) < 8 || ext[0] >= 'a' && ext[0] <= 'z' {
			return false
		}
		n := uint64(binary.BigEndian.Uint32(ext[4:8]))
		if n > uint64(len(ext)-8) {
			return false
		}
		ext = ext[8+n:]
	}
	return true
}

// indexSpan is the run of entries from lo to hi (exclusive) whose names lie in
// [from, to): those of one path, or those below one folder.
type indexSpan struct {
	lo, hi   int
	from, to string
}

// spans returns, in file order, the runs of entries at each prefix and below it.
func (ri *rawIndex) spans(prefixes []string) []indexSpan {
	var out []indexSpan
	for _, p := range prefixes {
		// The names below p are those from p+"/" up to p+"0", '0' being the byte after '/';
		// p itself sorts before them, its stages up to p+"\x00".
		for _, r := range [][2]string{{p, p + "\x00"}, {p + "/", p + "0"}} {
			out = append(out, indexSpan{lo: ri.search(r[0]), hi: ri.search(r[1]), from: r[0], to: r[1]})
		}
	}
	// The spans do not overlap, so their order by name is their order in the file.
	slices.SortFunc(out, func(a, b indexSpan) int { return strings.Compare(a.from, b.from) })
	return slices.CompactFunc(out, func(a, b indexSpan) bool { return a.from == b.from })
}

// search returns the first entry whose name is not below key.
func (ri *rawIndex) search(key string) int {
	return sort.Search(ri.count(), func(i int) bool { return ri.name(i) >= key })
}

// entriesIn decodes the entries of the spans.
func (ri *rawIndex) entriesIn(spans []indexSpan) ([]*index.Entry, bool) {
	var out []*index.Entry
	body := ri.b[:len(ri.b)-20]
	for _, s := range spans {
		for i := s.lo; i < s.hi; i++ {
			e := &index.Entry{}
			if _, ok := decodeEntry(body, ri.text, ri.offs[i], ri.version, e); !ok {
				return nil, false
			}
			out = append(out, e)
		}
	}
	return out, true
}

// splice returns, in parts to be written one after the other, the index file with the
// entries of the spans replaced by entries, sorted by name, each of which lies in one span,
// and with the cache-tree extension cacheTree when it is not nil; false when an entry lies
// in no span or cannot be stored in version 2 or 3. The entries kept are parts of the old
// file's bytes, not copies.
func (ri *rawIndex) splice(spans []indexSpan, entries []*index.Entry, cacheTree []byte) ([][]byte, bool) {
	version, removed := ri.version, 0
	for _, s := range spans {
		removed += s.hi - s.lo
	}
	for _, e := range entries {
		if extended(e) {
			version = 3 // entries of version 2 are entries of version 3 as they are
		}
	}
	head := append([]byte("DIRC"), 0, 0, 0, 0, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(head[4:], version)
	binary.BigEndian.PutUint32(head[8:], uint32(ri.count()-removed+len(entries)))
	parts := [][]byte{head}
	prev, next := 12, 0
	for _, s := range spans {
		parts = append(parts, ri.b[prev:ri.offs[s.lo]])
		var written []byte
		for ; next < len(entries) && entries[next].Name >= s.from && entries[next].Name < s.to; next++ {
			var ok bool
			if written, ok = appendEntry(written, entries[next]); !ok {
				return nil, false
			}
		}
		parts, prev = append(parts, written), ri.offs[s.hi]
	}
	if next != len(entries) {
		return nil, false
	}
	parts = append(parts, ri.b[prev:ri.offs[ri.count()]])
	if cacheTree != nil {
		ext := binary.BigEndian.AppendUint32([]byte(cacheTreeSig), uint32(len(cacheTree)))
		parts = append(parts, ext, cacheTree)
	}
	sum := sha1.New()
	for _, p := range parts {
		sum.Write(p)
	}
	return append(parts, sum.Sum(nil)), true
}

// cacheTree returns the data of the cache-tree extension, nil when there is none.
func (ri *rawIndex) cacheTree() []byte {
	ext := ri.extensions()
	for len(ext) >= 8 {
		n := int(binary.BigEndian.Uint32(ext[4:8]))
		if string(ext[:4]) == cacheTreeSig {
			return ext[8 : 8+n]
		}
		ext = ext[8+n:]
	}
	return nil
}
