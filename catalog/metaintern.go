package catalog

import (
	"slices"
	"strings"
)

// maxInterned bounds the distinct metadata mappings an interner remembers, so
// that a catalog whose every skill has metadata of its own costs no more than
// one without an interner.
const maxInterned = 4096

// metaInterner hands out one shared map for every metadata mapping with the
// same keys and values. Most catalogs repeat a few mappings (an author and a
// version) across thousands of skills, and a small Go map costs hundreds of
// bytes, more than the rest of a listed skill.
type metaInterner struct {
	maps map[string]map[string]string
	keys []string
	buf  []byte
}

// intern returns a map equal to meta: the one handed out before for the same
// content, or meta itself, now remembered.
func (in *metaInterner) intern(meta map[string]string) map[string]string {
	if len(meta) == 0 {
		return meta
	}
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
	if m, ok := in.maps[string(in.buf)]; ok {
		return m
	}
	if len(in.maps) < maxInterned {
		if in.maps == nil {
			in.maps = map[string]map[string]string{}
		}
		in.maps[strings.Clone(string(in.buf))] = meta
	}
	return meta
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
