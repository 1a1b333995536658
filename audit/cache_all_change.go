package audit

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// A whole result that keeps most of the reports of an earlier one is stored as a change to it:
// the whole result it starts from (its base), the paths of the base's skills it leaves out, and
// the reports of the skills it adds or audited again. After a publish, the audit then writes
// the skill that changed, not the reports of every skill again. A change is always to a result
// stored whole, never to another change, so reading a result reads two files at most. Layout:
//
//	magic "SGAD", format byte
//	uvarint ruleset, string root, string folder, string policy
//	string base root
//	uvarint count; count × string path left out
//	uvarint count; count × skill, as in a whole-result entry
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// The head up to the policy is the head of a whole-result entry, so LatestAll reads both.
const (
	changeMagic = "SGAD"
	// changeShare bounds a change: one that adds, audits again or leaves out more than one skill
	// in changeShare of its base's is stored whole.
	changeShare = 8
)

// hasMagic reports whether data starts with magic.
func hasMagic(data []byte, magic string) bool {
	return len(data) >= len(magic) && string(data[:len(magic)]) == magic
}

// encodeAllResult encodes reports as the result of k: as a change to the whole result prev
// is or is a change to, when it keeps most of that one's reports, else whole. base is the
// result the change is to, nil when reports are encoded whole.
func encodeAllResult(k allKey, reports []SkillReport, prev *AllResult) (data []byte, base *AllResult, err error) {
	if prev != nil {
		base = prev
		if prev.base != nil {
			base = prev.base
		}
		if gone, added, ok := changeTo(base.Reports, reports); ok {
			data, err = encodeChange(k, base.key.root, gone, added, prev)
			return data, base, err
		}
	}
	data, err = encodeAllEntry(k, reports, prev)
	return data, nil, err
}

// changeTo compares reports with base, both in path order, and returns the paths of base's
// skills that reports leave out and the reports that are not base's very reports at the same
// path. ok is false when either is out of order or they differ in more than one skill in
// changeShare of base's.
func changeTo(base, reports []SkillReport) (gone []string, added []SkillReport, ok bool) {
	limit := len(base) / changeShare
	if !slices.IsSortedFunc(base, byPath) || !slices.IsSortedFunc(reports, byPath) {
		return nil, nil, false
	}
	i := 0
	for _, s := range reports {
		for ; i < len(base) && base[i].Path < s.Path; i++ {
			gone = append(gone, base[i].Path)
		}
		if i < len(base) && base[i].Path == s.Path {
			i++
			if sameSkill(base[i-1], s) {
				continue
			}
		}
		added = append(added, s)
		if len(gone)+len(added) > limit {
			return nil, nil, false
		}
	}
	for ; i < len(base); i++ {
		gone = append(gone, base[i].Path)
	}
	return gone, added, len(gone)+len(added) <= limit
}

// sameSkill reports whether a and b are the very same report of the same skill.
func sameSkill(a, b SkillReport) bool {
	return a.Path == b.Path && a.Report == b.Report && a.Name == b.Name && a.Base == b.Base
}

func byPath(a, b SkillReport) int { return strings.Compare(a.Path, b.Path) }

// encodeChange encodes the result of k as the change to the whole result of base root that
// leaves out the skills at the paths gone and adds added, copying the encodings of the reports
// it shares with prev.
func encodeChange(k allKey, baseRoot string, gone []string, added []SkillReport, prev *AllResult) ([]byte, error) {
	b := appendString(appendAllHead(nil, changeMagic, k), baseRoot)
	b = binary.AppendUvarint(b, uint64(len(gone)))
	for _, p := range gone {
		b = appendString(b, p)
	}
	return appendSkillsSealed(b, k, added, prev)
}

// applyChange returns the result of k that data stores as a change, applied to its base,
// which must be stored whole. A damaged change, one stored under another key, or a missing,
// damaged or unordered base is errCorrupt.
func (c *Cache) applyChange(data []byte, k allKey) (*AllResult, error) {
	d, err := openAllEntry(data, changeMagic, "a stored change", k)
	if err != nil {
		return nil, err
	}
	baseKey := k
	baseKey.root = d.string()
	base, ok := c.readAll(baseKey, false)
	if d.err || !ok || baseKey.root == "" || !slices.IsSortedFunc(base.Reports, byPath) {
		return nil, fmt.Errorf("%w: the result it changes is missing or unordered", errCorrupt)
	}
	gone, added, err := decodeChanges(d, k, len(base.Reports))
	if err != nil {
		return nil, err
	}
	res := &AllResult{Root: k.root, key: k, size: base.size + len(data), base: base}
	res.Reports, res.entries = mergeChanges(base, gone, added)
	return res, nil
}

// decodeChanges reads the paths left out, at most of of them, and the skills added of a
// stored change of k, which must be in path order.
func decodeChanges(d *entryDecoder, k allKey, of int) (gone []string, added *AllResult, err error) {
	n := d.int()
	if d.err || n > of || n > len(d.b) {
		return nil, nil, fmt.Errorf("%w: %d paths cannot fit", errCorrupt, n)
	}
	gone = make([]string, n)
	for i := range gone {
		gone[i] = d.string()
	}
	added, err = decodeSkills(d, k)
	if err != nil {
		return nil, nil, err
	}
	if d.err || len(d.b) != 0 || !slices.IsSorted(gone) || !slices.IsSortedFunc(added.Reports, byPath) {
		return nil, nil, fmt.Errorf("%w: malformed stored change", errCorrupt)
	}
	return gone, added, nil
}

// mergeChanges returns base's reports and entries without those at the paths gone, with the
// reports of added in their place or among them, in path order.
func mergeChanges(base *AllResult, gone []string, added *AllResult) ([]SkillReport, [][]byte) {
	n := len(base.Reports) + len(added.Reports)
	reports, entries := make([]SkillReport, 0, n), make([][]byte, 0, n)
	j := 0
	for i, s := range base.Reports {
		for ; j < len(added.Reports) && added.Reports[j].Path < s.Path; j++ {
			reports, entries = append(reports, added.Reports[j]), append(entries, added.entries[j])
		}
		for len(gone) > 0 && gone[0] < s.Path {
			gone = gone[1:]
		}
		if len(gone) > 0 && gone[0] == s.Path {
			continue
		}
		if j < len(added.Reports) && added.Reports[j].Path == s.Path {
			continue
		}
		reports, entries = append(reports, s), append(entries, base.entries[i])
	}
	for ; j < len(added.Reports); j++ {
		reports, entries = append(reports, added.Reports[j]), append(entries, added.entries[j])
	}
	return reports, entries
}
