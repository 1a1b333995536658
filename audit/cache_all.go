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
//	count × skill: string name, string path, string base, string report
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// where a string is a uvarint length and that many bytes, and report holds the skill's report
// as a per-skill entry holds it after its key (appendReport), without a key or checksum of its
// own: the whole entry's cover it. A skill's report stays the same bytes from one version of
// the folder to the next.
const (
	allMagic  = "SGAW"
	allFormat = 3
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

func (c *Cache) allFile(k allKey) string {
	return filepath.Join(c.Dir, allFolder, entryName("skillgit-audit-all", allFormat, k.ruleset, k.root, k.folder, k.policy))
}

// AllResult is a whole result read from the cache: the reports of every skill of one version
// of a skills folder.
type AllResult struct {
	// Root is the tree object id of the skills folder.
	Root string
	// Reports are the skills' reports, as PutAll stored them.
	Reports []SkillReport

	// key is the result's key and size the bytes of its entry.
	key  allKey
	size int
	// entries are the stored encodings of Reports, by index: storing a result that keeps
	// most reports of this one copies them rather than encode them again.
	entries [][]byte
	// base is the whole result this one is stored as a change to; nil when it is stored whole.
	base *AllResult
	// used is when the result's entry was last stored or marked used.
	used time.Time
}

// GetAll returns the reports of every skill of the skills folder whose tree object id is
// rootTree, at folder in the repository, audited without a base version under the policy
// policyHash, as PutAll stored them. A missing, unreadable, oversized or corrupt entry, or one
// stored under another key, is a miss.
func (c *Cache) GetAll(rootTree, folder, policyHash string) ([]SkillReport, bool) {
	res, ok := c.getAll(rootTree, folder, policyHash)
	if !ok {
		return nil, false
	}
	return res.Reports, true
}

func (c *Cache) getAll(rootTree, folder, policyHash string) (*AllResult, bool) {
	if c == nil || c.Dir == "" || rootTree == "" {
		return nil, false
	}
	return c.readAll(allKey{root: rootTree, folder: folder, policy: policyHash, ruleset: rulesetKey()}, true)
}

// readAll reads the result stored under k, which may be stored as a change to another only
// when changes is set.
//
// A result read is marked used, for prune, unless it is read as the base of a change: the
// change is marked after its base, so that the change stays the more recent of the two, the
// one LatestAll finds.
func (c *Cache) readAll(k allKey, changes bool) (*AllResult, bool) {
	name := c.allFile(k)
	fi, err := os.Lstat(name)
	if err != nil || fi.Size() > maxAllEntry {
		return nil, false
	}
	// A buffer one byte larger than the file reads it in one call. The reports share its
	// bytes, so it is never reused.
	data, err := readBounded(name, maxAllEntry, make([]byte, 0, fi.Size()+1))
	if err != nil {
		return nil, false
	}
	var res *AllResult
	if changes && hasMagic(data, changeMagic) {
		res, err = c.applyChange(data, k)
	} else {
		res, err = decodeAllEntry(data, k)
	}
	if err != nil {
		return nil, false
	}
	res.used = fi.ModTime()
	if changes {
		c.markUsed(res)
	}
	return res, true
}

// markUsed renews the time of res's entry, and first of its base's, when either is older than
// touchAfter.
func (c *Cache) markUsed(res *AllResult) {
	if res.base != nil && time.Since(res.base.used) > touchAfter {
		c.markPair(res.base.key, res.key)
		return
	}
	if time.Since(res.used) > touchAfter {
		touch(c.allFile(res.key))
	}
}

// PutAll stores reports as the whole result of the skills folder whose tree object id is
// rootTree; see GetAll. Every report must hold the result of a scan without a base version.
// The entry appears whole or not at all, and storing it removes the least recently used
// entries beyond a few, so that the cache stays bounded.
func (c *Cache) PutAll(rootTree, folder, policyHash string, reports []SkillReport) error {
	return c.PutAllSince(rootTree, folder, policyHash, reports, nil)
}

// PutAllSince is PutAll for reports that keep many of prev's, an earlier result of the same
// folder read from the cache (nil for none): a report of prev kept at the same path is stored
// as prev stored it, not encoded again. Both must be in path order for that.
func (c *Cache) PutAllSince(rootTree, folder, policyHash string, reports []SkillReport, prev *AllResult) error {
	switch {
	case c == nil || c.Dir == "":
		return errors.New("audit cache: no folder set; give the cache a folder")
	case rootTree == "":
		return errors.New("audit cache: no tree id; only results of a git tree can be cached")
	}
	k := allKey{root: rootTree, folder: folder, policy: policyHash, ruleset: rulesetKey()}
	if prev != nil && (prev.key.folder != folder || prev.key.policy != policyHash || prev.key.ruleset != k.ruleset) {
		prev = nil
	}
	data, base, err := encodeAllResult(k, reports, prev)
	if err != nil {
		return err
	}
	if err := writeAtomic(c.allFile(k), data); err != nil {
		return c.storeError(err)
	}
	if base != nil {
		// A change needs its base, which must not be the first to go.
		c.markPair(base.key, k)
	}
	c.prune(allFolder, maxAllEntries)
	return nil
}

// encodeAllEntry encodes reports as the whole-result entry of k, copying the encodings of
// the reports it shares with prev, when not nil.
func encodeAllEntry(k allKey, reports []SkillReport, prev *AllResult) ([]byte, error) {
	size := 0
	if prev != nil {
		// The new entry is about as large as the one it keeps most of.
		size = prev.size + 64<<10
	}
	b := appendAllHead(make([]byte, 0, size), allMagic, k)
	return appendSkillsSealed(b, k, reports, prev)
}

// appendAllHead appends the head of a whole result or a change of k, which starts with magic.
func appendAllHead(b []byte, magic string, k allKey) []byte {
	b = append(append(b, magic...), allFormat)
	b = binary.AppendUvarint(b, uint64(k.ruleset))
	return appendString(appendString(appendString(b, k.root), k.folder), k.policy)
}

// appendSkillsSealed appends the count of reports, each report as a skill of the result of k
// (copied from prev where it holds the very report), and the checksum of all of b.
func appendSkillsSealed(b []byte, k allKey, reports []SkillReport, prev *AllResult) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(reports)))
	kept := keptEntries{prev: prev}
	for _, s := range reports {
		var err error
		if b, err = appendSkill(b, k, s, &kept); err != nil {
			return nil, err
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// appendSkill appends the skill s of the result of k to b, copying its encoding from kept
// when kept holds it.
func appendSkill(b []byte, k allKey, s SkillReport, kept *keptEntries) ([]byte, error) {
	if s.Report == nil {
		return nil, fmt.Errorf("audit cache: %s has no report; it cannot be cached", s.Path)
	}
	b = appendString(appendString(appendString(b, s.Name), s.Path), s.Base)
	entry, ok := kept.find(s)
	if !ok {
		entry = appendReport(nil, s.Report)
	}
	b = append(binary.AppendUvarint(b, uint64(len(entry))), entry...)
	if len(b) > maxAllEntry {
		return nil, fmt.Errorf("audit cache: the results of %s are over the limit of %d bytes; they are not cached whole", k.folder, maxAllEntry)
	}
	return b, nil
}

// keptEntries finds, for reports in path order, the stored encoding of each that an earlier
// result in path order holds: the very report, at the same path.
type keptEntries struct {
	prev *AllResult
	i    int
}

func (e *keptEntries) find(s SkillReport) ([]byte, bool) {
	if e.prev == nil {
		return nil, false
	}
	p := e.prev.Reports
	for e.i < len(p) && p[e.i].Path < s.Path {
		e.i++
	}
	if e.i < len(p) && p[e.i].Path == s.Path && p[e.i].Report == s.Report && p[e.i].Name == s.Name && p[e.i].Base == s.Base {
		return e.prev.entries[e.i], true
	}
	return nil, false
}

// decodeAllEntry returns the result in data if data is a whole, undamaged entry for key k;
// anything else is errCorrupt. The result shares data's bytes.
func decodeAllEntry(data []byte, k allKey) (*AllResult, error) {
	d, err := openAllEntry(data, allMagic, "a whole-result entry", k)
	if err != nil {
		return nil, err
	}
	res, err := decodeSkills(d, k)
	if err != nil {
		return nil, err
	}
	if d.err || len(d.b) != 0 {
		return nil, fmt.Errorf("%w: malformed whole-result entry", errCorrupt)
	}
	res.size = len(data)
	return res, nil
}

// openAllEntry checks that data, a whole result or a change, starts with magic, is undamaged
// and is stored under k, and returns a decoder of what follows its head, sharing data's bytes.
// what names the kind of entry in an error.
func openAllEntry(data []byte, magic, what string, k allKey) (*entryDecoder, error) {
	body, err := checkedBody(data, magic, what)
	if err != nil {
		return nil, err
	}
	d := &entryDecoder{b: body, shared: true}
	if !d.isAllKey(k) {
		return nil, fmt.Errorf("%w: stored under another key", errCorrupt)
	}
	return d, nil
}

// isAllKey reads the head of a whole result or a change after its magic, and reports whether
// it is stored under k.
func (d *entryDecoder) isAllKey(k allKey) bool {
	return d.byte() == allFormat && d.int() == k.ruleset && d.string() == k.root && d.string() == k.folder && d.string() == k.policy
}

// decodeSkills reads a count and that many skills of the result of k.
func decodeSkills(d *entryDecoder, k allKey) (*AllResult, error) {
	n := d.int()
	if d.err || n > len(d.b)/minSkillBytes {
		return nil, fmt.Errorf("%w: %d skills cannot fit", errCorrupt, n)
	}
	res := &AllResult{Root: k.root, Reports: make([]SkillReport, n), key: k, entries: make([][]byte, n)}
	// One allocation holds every report.
	reports := make([]Report, n)
	for i := range res.Reports {
		s := &res.Reports[i]
		s.Report = &reports[i]
		entry, err := decodeSkill(d, k, s)
		if err != nil {
			return nil, err
		}
		res.entries[i] = entry
	}
	return res, nil
}

// decodeSkill reads one skill of a whole-result entry into s, whose Report it fills, and
// returns the skill's entry.
func decodeSkill(d *entryDecoder, k allKey, s *SkillReport) ([]byte, error) {
	s.Name, s.Path, s.Base = d.string(), d.string(), d.string()
	n := d.int()
	if d.err || n > len(d.b) {
		return nil, fmt.Errorf("%w: malformed whole-result entry", errCorrupt)
	}
	entry := d.b[:n:n]
	d.b = d.b[n:]
	if err := (&entryDecoder{b: entry, shared: true}).report(s.Report); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Path, err)
	}
	return entry, nil
}

// touch marks a whole-result entry as used now, for prune; a failure only makes it look
// older.
func touch(name string) {
	touchAt(name, time.Now())
}

// touchAt marks a whole-result entry as used at t.
func touchAt(name string, t time.Time) {
	_ = os.Chtimes(name, t, t)
}

// markPair marks the results of base and of change, a change to it, as used now, the change a
// microsecond later. The times are set, not taken from the file system, whose clock may be as
// coarse as the system's tick: LatestAll must find the change, not its base.
func (c *Cache) markPair(base, change allKey) {
	now := time.Now()
	touchAt(c.allFile(base), now)
	touchAt(c.allFile(change), now.Add(time.Microsecond))
}
