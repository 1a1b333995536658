package published

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/skillgit/skillgit/catalog"
)

// The catalog cache stores a catalog.Result in a form of its own: counts and strings, each
// string as its length in bytes (an unsigned varint) and its bytes. Reading one back copies
// the file into a single string and slices every value out of it, so a 10,000-skill catalog
// decodes in a few allocations, and skills whose metadata is the same bytes share one map, and writing one costs a pass over the strings. Reading checks
// every length against what is left, so a damaged file is a miss, never a panic.
//
//	file     = magic skills problems folders
//	skills   = count { name description license compatibility allowed-tools dir body
//	           count { key value } }      (metadata by key; count is 0 for none, else pairs + 1)
//	problems = count { file line message warning object }    (line: varint, warning: 0 or 1)
//	folders  = count { folder }

// catalogMagic opens every cache file.
const catalogMagic = "skillgit catalog\n"

// encodeCatalog returns res in the cache's form, in a buffer of exactly its size: at 100,000
// skills the buffer is tens of megabytes, held while the listing is.
func encodeCatalog(res *catalog.Result) []byte {
	b := append(make([]byte, 0, encodedSize(res)), catalogMagic...)
	b = binary.AppendUvarint(b, uint64(len(res.Skills)))
	var keys []string
	for _, s := range res.Skills {
		b = appendStrings(b, s.Name, s.Description, s.License, s.Compatibility, s.AllowedTools, s.Dir, s.Body)
		b = appendMapLen(b, s.Metadata)
		keys = sortedKeys(keys[:0], s.Metadata)
		for _, k := range keys {
			b = appendStrings(b, k, s.Metadata[k])
		}
	}
	b = binary.AppendUvarint(b, uint64(len(res.Problems)))
	for _, p := range res.Problems {
		b = appendStrings(b, p.File)
		b = binary.AppendVarint(b, int64(p.Line))
		b = appendStrings(b, p.Message)
		b = append(b, boolByte(p.Warning))
		b = appendStrings(b, p.Object)
	}
	b = binary.AppendUvarint(b, uint64(len(res.Folders)))
	return appendStrings(b, res.Folders...)
}

// encodedSize is the length of encodeCatalog's result for res.
func encodedSize(res *catalog.Result) int {
	size := len(catalogMagic) + uvarintLen(uint64(len(res.Skills)))
	for _, s := range res.Skills {
		size += stringsSize(s.Name, s.Description, s.License, s.Compatibility, s.AllowedTools, s.Dir, s.Body)
		size += uvarintLen(uint64(len(s.Metadata)) + 1)
		for k, v := range s.Metadata {
			size += stringsSize(k, v)
		}
	}
	size += uvarintLen(uint64(len(res.Problems)))
	for _, p := range res.Problems {
		size += stringsSize(p.File, p.Message, p.Object) + uvarintLen(zigzag(int64(p.Line))) + 1
	}
	size += uvarintLen(uint64(len(res.Folders)))
	return size + stringsSize(res.Folders...)
}

// stringsSize is how many bytes appendStrings adds for ss.
func stringsSize(ss ...string) int {
	n := 0
	for _, s := range ss {
		n += uvarintLen(uint64(len(s))) + len(s)
	}
	return n
}

// uvarintLen is the length of v as an unsigned varint.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// zigzag maps v to the unsigned value binary.AppendVarint writes for it.
func zigzag(v int64) uint64 {
	return uint64(v<<1) ^ uint64(v>>63)
}

// sortedKeys appends the keys of m to keys, sorted: a metadata mapping is written in key order,
// so that equal mappings are equal bytes, which the decoder shares one map for.
func sortedKeys(keys []string, m map[string]string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// appendMapLen appends 0 for a nil map and its length plus one otherwise, so that an empty
// metadata mapping reads back empty, not nil.
func appendMapLen(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(len(m))+1)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// decodeCatalog reads a result encodeCatalog wrote; ok is false when data is not one. The
// result's strings refer to data, without the copy that would double what a listing holds, so
// data must never change afterwards.
func decodeCatalog(data []byte) (res *catalog.Result, ok bool) {
	d := catalogDecoder{s: unsafe.String(unsafe.SliceData(data), len(data))}
	if !d.magic() {
		return nil, false
	}
	res = &catalog.Result{}
	if n, ok := d.count(8); ok {
		res.Skills = make([]*catalog.Skill, n)
		backing := make([]catalog.Skill, n)
		for i := range backing {
			res.Skills[i] = &backing[i]
			d.skill(&backing[i])
		}
	}
	if n, ok := d.count(5); ok {
		res.Problems = make([]catalog.Problem, n)
		for i := range res.Problems {
			d.problem(&res.Problems[i])
		}
	}
	if n, ok := d.count(1); ok {
		res.Folders = make([]string, n)
		for i := range res.Folders {
			res.Folders[i] = d.str()
		}
	}
	if d.bad || d.s != "" {
		return nil, false
	}
	return res, true
}

// catalogDecoder reads the cache's form from s; bad records the first thing that did not fit,
// after which every read returns zero values.
type catalogDecoder struct {
	s   string
	bad bool
	// meta holds the metadata maps read so far by their encoded bytes.
	meta map[string]map[string]string
}

func (d *catalogDecoder) magic() bool {
	if len(d.s) < len(catalogMagic) || d.s[:len(catalogMagic)] != catalogMagic {
		return false
	}
	d.s = d.s[len(catalogMagic):]
	return true
}

func (d *catalogDecoder) uvarint() uint64 {
	var v uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64 && !d.bad; i++ {
		c := d.s[i]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			break // over 64 bits
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.s = d.s[i+1:]
			return v
		}
	}
	d.bad = true
	return 0
}

// varint reads a signed varint, zig-zag encoded as binary.AppendVarint writes it.
func (d *catalogDecoder) varint() int64 {
	u := d.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// count reads a count of items each at least minSize bytes long, refusing one that the rest
// of the data could not hold, so that a damaged count never allocates much.
func (d *catalogDecoder) count(minSize int) (int, bool) {
	n := d.uvarint()
	if d.bad || n > uint64(len(d.s)/minSize) {
		d.bad = true
		return 0, false
	}
	return int(n), n > 0
}

func (d *catalogDecoder) str() string {
	n := d.uvarint()
	if d.bad || n > uint64(len(d.s)) {
		d.bad = true
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *catalogDecoder) skill(s *catalog.Skill) {
	s.Name, s.Description, s.License = d.str(), d.str(), d.str()
	s.Compatibility, s.AllowedTools, s.Dir, s.Body = d.str(), d.str(), d.str(), d.str()
	if n, ok := d.count(2); ok {
		s.Metadata = d.metadata(n - 1)
	}
}

// maxSharedMetadata bounds the distinct metadata mappings the decoder remembers to share.
const maxSharedMetadata = 4096

// metadata reads n metadata pairs into a map, the one read before for the same bytes if any.
func (d *catalogDecoder) metadata(n int) map[string]string {
	rest := d.s
	for range 2 * n {
		d.str()
	}
	if d.bad {
		return nil
	}
	span := rest[:len(rest)-len(d.s)]
	if m, ok := d.meta[span]; ok {
		return m
	}
	m := make(map[string]string, n)
	pairs := catalogDecoder{s: span}
	for range n {
		k := pairs.str()
		m[k] = pairs.str()
	}
	if d.meta == nil {
		d.meta = map[string]map[string]string{}
	}
	if len(d.meta) < maxSharedMetadata {
		d.meta[span] = m
	}
	return m
}

func (d *catalogDecoder) problem(p *catalog.Problem) {
	p.File = d.str()
	p.Line = int(d.varint())
	p.Message = d.str()
	switch w := d.byte1(); w {
	case 0, 1:
		p.Warning = w == 1
	default:
		d.bad = true
	}
	p.Object = d.str()
}

// byte1 reads one byte.
func (d *catalogDecoder) byte1() byte {
	if d.bad || d.s == "" {
		d.bad = true
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}
