package catalog

import (
	"slices"
	"strings"
)

// maxInterned bounds the distinct metadata mappings an interner remembers, so
// that a catalog whose every skill has metadata of its own costs no more than
// one without an interner.
const maxInterned = 4096

// metaInterner compacts the strings of skills and hands out one shared map
// for every metadata mapping with the same keys and values. Most catalogs repeat a few mappings (an author and a
// version) across thousands of skills, and a small Go map costs hundreds of
// bytes, more than the rest of a listed skill.
type metaInterner struct {
	maps map[string]map[string]string
	keys []string
	buf  []byte
}

// lookup returns the map handed out before with the content of meta, which
// is not empty. It leaves meta's keys, sorted, in keys and the content's key
// in buf, for compact and remember.
func (in *metaInterner) lookup(meta map[string]string) (map[string]string, bool) {
	in.keys = in.keys[:0]
	for k := range meta {
		in.keys = append(in.keys, k)
	}
	slices.Sort(in.keys)
	in.buf = in.buf[:0]
	for _, k := range in.keys {
		in.buf = appendLenString(in.buf, k)
		in.buf = appendLenString(in.buf, meta[k])
	}
	m, ok := in.maps[string(in.buf)]
	return m, ok
}

// remember makes meta the map handed out for the content lookup last missed,
// unless the interner is full.
func (in *metaInterner) remember(meta map[string]string) {
	if len(in.maps) < maxInterned {
		if in.maps == nil {
			in.maps = map[string]map[string]string{}
		}
		in.maps[strings.Clone(string(in.buf))] = meta
	}
}

// appendLenString appends s after its length, so that no two lists of
// strings append the same bytes.
func appendLenString(b []byte, s string) []byte {
	n := len(s)
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	b = append(append(b, byte(n)), s...)
	return b
}

// compact moves the strings of s, which its frontmatter's parse left inside
// copies of the whole block, into one string of their own, so that a listing
// holds only the values, and gives s the shared map of its metadata.
func (in *metaInterner) compact(s *Skill) {
	shared, ok := map[string]string(nil), len(s.Metadata) == 0
	if !ok {
		shared, ok = in.lookup(s.Metadata)
	}
	n := len(s.Name) + len(s.Description) + len(s.License) + len(s.Compatibility) + len(s.AllowedTools)
	if !ok {
		for k, v := range s.Metadata {
			n += len(k) + len(v)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, f := range []*string{&s.Name, &s.Description, &s.License, &s.Compatibility, &s.AllowedTools} {
		b.WriteString(*f)
	}
	var meta map[string]string
	if !ok {
		meta = make(map[string]string, len(s.Metadata))
		for _, k := range in.keys {
			b.WriteString(k)
			b.WriteString(s.Metadata[k])
		}
	}
	all := b.String()
	for _, f := range []*string{&s.Name, &s.Description, &s.License, &s.Compatibility, &s.AllowedTools} {
		*f, all = all[:len(*f)], all[len(*f):]
	}
	switch {
	case ok && shared != nil:
		s.Metadata = shared
	case !ok:
		for _, k := range in.keys {
			v := s.Metadata[k]
			k, all = all[:len(k)], all[len(k):]
			meta[k], all = all[:len(v)], all[len(v):]
		}
		s.Metadata = meta
		in.remember(meta)
	}
}
