package audit

import (
	"bytes"
	"slices"
)

// manyStarts is the number of keyword starts of an anchored rule in one text from which its
// needed words are looked up in where they occur, rather than searched for in each window:
// windows of starts on one long line overlap, and searching each costs the line's length.
const manyStarts = 8

// occurrences returns the offsets where word occurs in the folded text, overlapping ones
// included, finding them on first use.
func (u *unit) occurrences(word []byte) []int32 {
	if o, ok := u.occ[string(word)]; ok {
		return o
	}
	lower := u.folded()
	var o []int32
	for off := 0; off < len(lower); {
		i := bytes.Index(lower[off:], word)
		if i < 0 {
			break
		}
		o = append(o, int32(off+i))
		off += i + 1
	}
	if u.occ == nil {
		u.occ = map[string][]int32{}
	}
	u.occ[string(word)] = o
	return o
}

// holds reports what bytes.Contains(u.folded()[ws:end], word) reports: whether word occurs
// at an offset from ws on and ends by end. The first occurrence from ws ends first.
func (u *unit) holds(word []byte, ws, end int) bool {
	if len(word) == 0 {
		return true
	}
	o := u.occurrences(word)
	i, _ := slices.BinarySearch(o, int32(ws))
	return i < len(o) && int(o[i])+len(word) <= end
}

// windowHolds is windowHas of u.folded()[ws:end], answered from the occurrences of the words.
func (u *unit) windowHolds(ws, end int, needs [][][]byte) bool {
	for _, words := range needs {
		if !slices.ContainsFunc(words, func(w []byte) bool { return u.holds(w, ws, end) }) {
			return false
		}
	}
	return true
}
