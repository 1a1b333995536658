package audit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"
)

// A whole-result entry holds the reports of every skill of one skills folder, so that a repeat
// audit of an unchanged folder reads one file instead of one per skill. Layout:
//
//	magic "SGAW", format byte
//	uvarint ruleset, string root, string folder, string policy
//	uvarint count
//	count × skill: string name, string path, string base, string entry
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// where a string is a uvarint length and that many bytes, and entry is the skill's report in
// the per-skill entry encoding (with its own key and checksum), under the key that
// allKey.entryKey gives. That key leaves out the folder's tree, so a skill's entry stays the
// same from one version of the folder to the next.
const (
	allMagic  = "SGAW"
	allFormat = 2
	// allFolder is the subfolder of Cache.Dir that holds whole-result entries.
	allFolder = "all"
	// maxAllEntry bounds a whole-result entry: a larger one is not stored or read.
	maxAllEntry = 256 << 20
	// maxAllEntries bounds how many whole-result entries are kept: storing one more removes
	// the least recently used.
	maxAllEntries = 8
	// minSkillBytes is the least a skill takes in a whole-result entry, to bound a count read
	// from a damaged entry before anything is allocated for it.
	minSkillBytes = 4
	// touchAfter is how old a whole-result entry's time may get before a hit renews it: entries
	// are dropped least recently used first, to within this much, and a hit on a fresh entry
	// writes nothing.
	touchAfter = time.Hour
)

// allKey is what a whole result depends on: the tree object id of the skills folder, where
// that folder is, the policy and the ruleset.
type allKey struct {
	root, folder, policy string
	ruleset              int
}

// entryKey is the key a skill's report is encoded under inside a whole-result entry: its
// path takes the place of a tree id, which the whole entry's own key and checksum fix.
func (k allKey) entryKey(path string) cacheKey {
	return newCacheKey(":"+path, k.policy, "")
}

func (c *Cache) allFile(k allKey) string {
	return filepath.Join(c.Dir, allFolder, entryName("skillgit-audit-all", allFormat, k.ruleset, k.root, k.folder, k.policy))
}

// GetAll returns the reports of every skill of the skills folder whose tree object id is
// rootTree, at folder in the repository, audited without a base version under the policy
// policyHash, as PutAll stored them. A missing, unreadable, oversized or corrupt entry, or one
// stored under another key, is a miss.
func (c *Cache) GetAll(rootTree, folder, policyHash string) ([]SkillReport, bool) {
	if c == nil || c.Dir == "" || rootTree == "" {
		return nil, false
	}
	k := allKey{root: rootTree, folder: folder, policy: policyHash, ruleset: rulesetKey()}
	name := c.allFile(k)
	fi, err := os.Lstat(name)
	if err != nil || fi.Size() > maxAllEntry {
		return nil, false
	}
	// A buffer one byte larger than the file reads it in one call.
	data, err := readBounded(name, maxAllEntry, make([]byte, 0, fi.Size()+1))
	if err != nil {
		return nil, false
	}
	reports, err := decodeAllEntry(data, k)
	if err != nil {
		return nil, false
	}
	if time.Since(fi.ModTime()) > touchAfter {
		touch(name)
	}
	return reports, true
}

// PutAll stores reports as the whole result of the skills folder whose tree object id is
// rootTree; see GetAll. Every report must hold the result of a scan without a base version.
// The entry appears whole or not at all, and storing it removes the least recently used
// entries beyond a few, so that the cache stays bounded.
func (c *Cache) PutAll(rootTree, folder, policyHash string, reports []SkillReport) error {
	switch {
	case c == nil || c.Dir == "":
		return errors.New("audit cache: no folder set; give the cache a folder")
	case rootTree == "":
		return errors.New("audit cache: no tree id; only results of a git tree can be cached")
	}
	k := allKey{root: rootTree, folder: folder, policy: policyHash, ruleset: rulesetKey()}
	data, err := encodeAllEntry(k, reports)
	if err != nil {
		return err
	}
	if err := writeAtomic(c.allFile(k), data); err != nil {
		return c.storeError(err)
	}
	c.prune(allFolder, maxAllEntries)
	return nil
}

func encodeAllEntry(k allKey, reports []SkillReport) ([]byte, error) {
	b := append([]byte(allMagic), allFormat)
	b = binary.AppendUvarint(b, uint64(k.ruleset))
	b = appendString(appendString(appendString(b, k.root), k.folder), k.policy)
	b = binary.AppendUvarint(b, uint64(len(reports)))
	for _, s := range reports {
		if s.Report == nil {
			return nil, fmt.Errorf("audit cache: %s has no report; it cannot be cached", s.Path)
		}
		b = appendString(appendString(appendString(b, s.Name), s.Path), s.Base)
		b = appendString(b, string(encodeCacheEntry(k.entryKey(s.Path), s.Report)))
		if len(b) > maxAllEntry {
			return nil, fmt.Errorf("audit cache: the results of %s are over the limit of %d bytes; they are not cached whole", k.folder, maxAllEntry)
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// decodeAllEntry returns the reports in data if data is a whole, undamaged entry for key k;
// anything else is errCorrupt.
func decodeAllEntry(data []byte, k allKey) ([]SkillReport, error) {
	if len(data) < len(allMagic)+5 || string(data[:len(allMagic)]) != allMagic {
		return nil, fmt.Errorf("%w: not a whole-result entry", errCorrupt)
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	d := &entryDecoder{b: body[len(allMagic):]}
	if d.byte() != allFormat || d.int() != k.ruleset || d.string() != k.root || d.string() != k.folder || d.string() != k.policy {
		return nil, fmt.Errorf("%w: stored under another key", errCorrupt)
	}
	n := d.int()
	if n > len(d.b)/minSkillBytes {
		return nil, fmt.Errorf("%w: %d skills cannot fit", errCorrupt, n)
	}
	out := make([]SkillReport, n)
	for i := range out {
		if err := decodeSkill(d, k, &out[i]); err != nil {
			return nil, err
		}
	}
	if d.err || len(d.b) != 0 {
		return nil, fmt.Errorf("%w: malformed whole-result entry", errCorrupt)
	}
	return out, nil
}

// decodeSkill reads one skill of a whole-result entry into s.
func decodeSkill(d *entryDecoder, k allKey, s *SkillReport) error {
	s.Name, s.Path, s.Base = d.string(), d.string(), d.string()
	n := d.int()
	if d.err || n > len(d.b) {
		return fmt.Errorf("%w: malformed whole-result entry", errCorrupt)
	}
	entry := d.b[:n]
	d.b = d.b[n:]
	r, err := decodeCacheEntry(entry, k.entryKey(s.Path))
	if err != nil {
		return fmt.Errorf("%s: %w", s.Path, err)
	}
	s.Report = r
	return nil
}

// touch marks a whole-result entry as used now, for prune; a failure only makes it look
// older.
func touch(name string) {
	now := time.Now()
	_ = os.Chtimes(name, now, now)
}
