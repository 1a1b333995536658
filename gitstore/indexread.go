package gitstore

import (
	"bytes"
	"encoding/binary"
	"time"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// decodeIndexFast reads an index file of version 2 or 3 held in b into idx, every entry
// straight from the bytes, and reports false, reading nothing, for one it leaves to go-git's
// decoder: another version, an extension git requires readers to understand, or a file it
// cannot parse. The cache-tree extension is not decoded: the caller keeps its bytes.
func decodeIndexFast(b []byte, idx *index.Index) bool { return decodeIndexBytes(b, idx, false) }

// decodeIndexBytes is decodeIndexFast; split also reads the file of a split index, whose
// link extension it leaves to the caller and whose entries may have empty names.
func decodeIndexBytes(b []byte, idx *index.Index, split bool) bool {
	if len(b) < 32 || string(b[:4]) != "DIRC" {
		return false
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version != 2 && version != 3 {
		return false
	}
	// The checksum is not verified, as git does not on reading (only `git fsck` does): it
	// would cost a hash of the whole file, 15 ms at 100,000 skills, and the file is only ever
	// replaced whole, under its lock. Git's index.skipHash leaves it zero.
	body := b[:len(b)-20]
	count := binary.BigEndian.Uint32(b[8:12])
	if uint64(count) > uint64(len(b)/entryFixedSize) {
		return false
	}
	// The names are slices of one string; b is never changed after: a copy of the file read
	// for this call, or a shared index mapped for the life of the process.
	text := unsafe.String(unsafe.SliceData(body), len(body))
	entries := make([]index.Entry, count)
	ptrs := make([]*index.Entry, count)
	pos := 12
	for i := range entries {
		next, ok := decodeEntry(body, text, pos, version, &entries[i])
		if !ok || entries[i].Name == "" && !split {
			return false
		}
		ptrs[i], pos = &entries[i], next
	}
	required := false
	known := func(sig string) bool { return sig[0] < 'a' || sig[0] > 'z' || split && sig == linkSig }
	if eachIndexExtension(b, func(sig string, _ []byte) { required = required || !known(sig) }) != nil || required {
		return false
	}
	idx.Version, idx.Entries = version, ptrs
	return true
}

// decodeEntry reads the entry at pos into e and returns the offset of the next one. The
// name may be empty, as in a split index's entry that replaces a shared one of the same name.
func decodeEntry(b []byte, text string, pos int, version uint32, e *index.Entry) (int, bool) {
	next, ok := skipIndexEntry(b, pos, version)
	if !ok {
		return 0, false
	}
	u := func(off int) uint32 { return binary.BigEndian.Uint32(b[pos+off:]) }
	e.CreatedAt = indexTimeOf(u(0), u(4))
	e.ModifiedAt = indexTimeOf(u(8), u(12))
	e.Dev, e.Inode, e.Mode = u(16), u(20), filemode.FileMode(u(24))
	e.UID, e.GID, e.Size = u(28), u(32), u(36)
	copy(e.Hash[:], b[pos+40:pos+60])
	flags := binary.BigEndian.Uint16(b[pos+60:])
	e.Stage = index.Stage(flags >> 12 & 0x3)
	name := pos + entryFixedSize
	if flags&entryExtendedFlag != 0 {
		if version < 3 {
			return 0, false
		}
		ext := binary.BigEndian.Uint16(b[name:])
		e.IntentToAdd, e.SkipWorktree = ext&intentToAddFlag != 0, ext&skipWorktreeFlag != 0
		name += 2
	}
	end := bytes.IndexByte(b[name:next], 0)
	if end < 0 {
		return 0, false
	}
	e.Name = text[name : name+end]
	return next, true
}

// indexTimeOf is the time of an entry's seconds and nanoseconds; zero for zero, as go-git
// reads it.
func indexTimeOf(sec, nsec uint32) time.Time {
	if sec == 0 && nsec == 0 {
		return time.Time{}
	}
	return time.Unix(int64(sec), int64(nsec))
}
