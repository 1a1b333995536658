package gitstore

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// The index of a checkout of 100,000 skills is 16 MB, and git's own commands and every
// publish wrote all of it for each change. From splitIndexFrom entries, unless core.splitIndex
// says otherwise, the index is written split as git writes it with core.splitIndex: a shared
// index holding the entries as they were once, sharedindex.<id>, and an index file holding
// the entries changed since, with the cache tree. A publish then writes the changed entries
// and the cache tree, a third of the file. git reads a split index whatever its settings,
// and with core.splitIndex unset keeps writing it split; `git update-index
// --no-split-index` joins it again.
var splitIndexFrom = 50_000 // a variable for the tests

const (
	// splitMaxPercent is the default of git's splitIndex.maxPercentChange: once the index
	// file's entries pass this share of the shared index, a new shared index is written.
	splitMaxPercent = 20
	// sharedIndexExpiry is git's splitIndex.sharedIndexExpire: a shared index no longer
	// used and older than this is removed when a new one is written.
	sharedIndexExpiry = 14 * 24 * time.Hour
)

// splitSetting is what core.splitIndex says, set and if so its value, and what
// splitIndex.maxPercentChange says.
type splitSetting struct {
	set, on    bool
	maxPercent int
}

// newShared reports whether a split file holding changes entries of a shared index of
// count is written as a new shared index instead: 0 percent writes one every time.
func (s splitSetting) newShared(changes, count int) bool {
	return s.maxPercent == 0 || changes*100 > count*s.maxPercent
}

// wantsSplit reports whether an index of n entries, split or not now, is written split:
// with core.splitIndex unset, git keeps a split index split.
func (s splitSetting) wantsSplit(n int, split bool) bool {
	if s.set {
		return s.on
	}
	return split || n >= splitIndexFrom
}

// readSplitSetting reads core.splitIndex and splitIndex.maxPercentChange from the
// repository's config.
func readSplitSetting(commonDir string) splitSetting {
	s := splitSetting{maxPercent: splitMaxPercent}
	cfg, err := ReadConfigFile(filepath.Join(commonDir, "config"))
	if err != nil {
		return s
	}
	if v, ok := configValue(cfg, "core", "", "splitindex"); ok {
		s.on, s.set = parseGitBool(v)
	}
	if v, ok := configValue(cfg, "splitindex", "", "maxpercentchange"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n <= 100 {
			s.maxPercent = n
		}
	}
	return s
}

// encode returns the split file: the replacing entries with their names left out, as git
// requires, the added ones, the link extension and the cache tree extension holding
// cacheTree when it is not nil. False for an entry git cannot store in version 2 or 3.
func (s *splitRaw) encode(cacheTree []byte) ([]byte, bool) {
	version := max(s.version, 2)
	for _, e := range append(s.replacing[:len(s.replacing):len(s.replacing)], s.added...) {
		if extended(e) {
			version = 3
		}
	}
	b := append([]byte("DIRC"), 0, 0, 0, 0, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(b[4:], version)
	binary.BigEndian.PutUint32(b[8:], uint32(len(s.replacing)+len(s.added)))
	for _, e := range s.replacing {
		nameless := *e
		nameless.Name = ""
		var ok bool
		if b, ok = appendEntry(b, &nameless); !ok {
			return nil, false
		}
	}
	for _, e := range s.added {
		var ok bool
		if b, ok = appendEntry(b, e); !ok {
			return nil, false
		}
	}
	link := appendEWAH(s.sharedID[:], s.deleted, s.sharedCount)
	link = appendEWAH(link, s.replaced, s.sharedCount)
	b = append(b, linkSig...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(link)))
	b = append(b, link...)
	return appendIndexEnd(b, cacheTree), true
}

// appendEWAH appends the positions set, ascending and below bits, as git's EWAH bitmap: its
// size in bits, its number of 64-bit words, the words, and the position of the last marker
// word. Each marker word counts the empty words before the literal words that follow it.
func appendEWAH(b []byte, set []int, bits int) []byte {
	type literal struct {
		at   int // the word's place in the bitmap
		bits uint64
	}
	var lits []literal
	for _, p := range set {
		if n := len(lits); n > 0 && lits[n-1].at == p/64 {
			lits[n-1].bits |= 1 << (p % 64)
		} else {
			lits = append(lits, literal{p / 64, 1 << (p % 64)})
		}
	}
	words := []uint64{0} // git's empty bitmap: one marker word of no run and no literals
	last, next := 0, 0   // the last marker word; the first word of the bitmap not yet written
	for i := 0; i < len(lits); {
		j := i + 1
		for j < len(lits) && lits[j].at == lits[j-1].at+1 {
			j++
		}
		if i > 0 {
			last = len(words)
			words = append(words, 0)
		}
		words[last] = uint64(lits[i].at-next)<<1 | uint64(j-i)<<33
		for _, l := range lits[i:j] {
			words = append(words, l.bits)
		}
		next, i = lits[j-1].at+1, j
	}
	b = binary.BigEndian.AppendUint32(b, uint32(bits))
	b = binary.BigEndian.AppendUint32(b, uint32(len(words)))
	for _, w := range words {
		b = binary.BigEndian.AppendUint64(b, w)
	}
	return binary.BigEndian.AppendUint32(b, uint32(last))
}

// commitSplit writes a split index: the split file alone while it holds few changes, else
// a new shared index of every entry and an empty split file, or every entry in one file
// when core.splitIndex is now false.
func (li *lockedIndex) commitSplit(cacheTree []byte) error {
	s := li.split
	if li.splitting.wantsSplit(s.sharedCount, true) && !li.splitting.newShared(s.changes(), s.sharedCount) {
		data, ok := s.encode(cacheTree)
		if !ok {
			li.lock.release()
			return errIndexTime
		}
		sharedPath := filepath.Join(filepath.Dir(li.lock.target), "sharedindex."+hex.EncodeToString(s.sharedID[:]))
		now := time.Now()
		_ = os.Chtimes(sharedPath, now, now) // as git freshens a shared index in use
		return li.write(data)
	}
	all, ok := s.all()
	if !ok {
		li.lock.release()
		return fmt.Errorf("%s: %w", li.lock.target, errBadIndex)
	}
	li.split, li.idx = nil, &index.Index{Version: max(s.version, 2), Entries: all}
	if !li.splitting.wantsSplit(len(all), true) {
		return li.commitWhole(cacheTree)
	}
	raiseVersion(li.idx)
	data, ok := encodeIndex(li.idx, nil)
	if !ok {
		li.lock.release()
		return errIndexTime
	}
	return li.writeSplit([][]byte{data[:len(data)-20], data[len(data)-20:]}, len(all), li.idx.Version, cacheTree)
}

// errIndexTime is the error for an entry whose time the index cannot hold.
var errIndexTime = errors.New("index: an entry's time cannot be stored; run `git update-index --really-refresh`")

// writeSplit writes the index as a new shared index, whose content is parts (an index file
// with no extension, its checksum last), and a split file that changes none of it.
func (li *lockedIndex) writeSplit(parts [][]byte, count int, version uint32, cacheTree []byte) error {
	id, err := writeSharedIndex(filepath.Dir(li.lock.target), parts)
	if err != nil {
		li.lock.release()
		return fmt.Errorf("index: writing the shared index: %w", err)
	}
	s := &splitRaw{version: version, sharedID: id, sharedCount: count}
	data, _ := s.encode(cacheTree) // no entries, so nothing can fail
	return li.write(data)
}

// writeSharedIndex writes parts as sharedindex.<id> in dir, id being the checksum that ends
// them, and removes the shared indexes of dir that have expired.
func writeSharedIndex(dir string, parts [][]byte) (Hash, error) {
	var id Hash
	copy(id[:], parts[len(parts)-1])
	name := filepath.Join(dir, "sharedindex."+hex.EncodeToString(id[:]))
	tmp, untrack, err := interrupt.CreateTemp(dir, "sharedindex_*")
	if err != nil {
		return id, err
	}
	defer untrack()
	for _, p := range parts {
		if _, err = tmp.Write(p); err != nil {
			break
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return id, err
	}
	removeExpiredShared(dir, name)
	return id, nil
}

// removeExpiredShared removes the shared indexes of dir, keep aside, not touched for
// sharedIndexExpiry: git freshens the one it reads, so those are no longer in use.
func removeExpiredShared(dir, keep string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := filepath.Join(dir, e.Name())
		if !strings.HasPrefix(e.Name(), "sharedindex.") || name == keep {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > sharedIndexExpiry {
			os.Remove(name)
		}
	}
}
