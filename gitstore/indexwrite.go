package gitstore

import (
	"crypto/sha1"
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Index entry flags, as git lays them out.
const (
	entryExtendedFlag = 0x4000
	entryNameMask     = 0xfff
	intentToAddFlag   = 1 << 13
	skipWorktreeFlag  = 1 << 14
	entryFixedSize    = 62 // the fields before the name, flags included
)

// encodeIndex writes idx in git's index format version 2 or 3, with the cache-tree
// extension holding cacheTree when it is not nil, and reports false, writing nothing, for
// an index it leaves to go-git's encoder: version 4, or one with entries git cannot store
// in version 2 or 3. It writes each entry's fields straight into one buffer.
func encodeIndex(idx *index.Index, cacheTree []byte) ([]byte, bool) {
	if idx.Version != 2 && idx.Version != 3 {
		return nil, false
	}
	slices.SortStableFunc(idx.Entries, func(a, b *index.Entry) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return int(a.Stage) - int(b.Stage)
	})
	size := 12 + 20
	for _, e := range idx.Entries {
		size += paddedEntrySize(e)
	}
	if cacheTree != nil {
		size += 8 + len(cacheTree)
	}
	b := make([]byte, 0, size)
	b = append(b, "DIRC"...)
	b = binary.BigEndian.AppendUint32(b, idx.Version)
	b = binary.BigEndian.AppendUint32(b, uint32(len(idx.Entries)))
	for _, e := range idx.Entries {
		var ok bool
		if b, ok = appendEntry(b, e); !ok {
			return nil, false
		}
	}
	return appendIndexEnd(b, cacheTree), true
}

// appendIndexEnd appends to the entries b the cache-tree extension holding cacheTree, when
// it is not nil, and the checksum.
func appendIndexEnd(b, cacheTree []byte) []byte {
	if cacheTree != nil {
		b = append(b, cacheTreeSig...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(cacheTree)))
		b = append(b, cacheTree...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}

func extended(e *index.Entry) bool { return e.IntentToAdd || e.SkipWorktree }

// paddedEntrySize is the size of an entry with the NULs that end it on a multiple of 8.
func paddedEntrySize(e *index.Entry) int {
	n := entryFixedSize + len(e.Name)
	if extended(e) {
		n += 2
	}
	return n + 8 - n%8
}

// appendEntry appends one entry; false for a time git cannot store.
func appendEntry(b []byte, e *index.Entry) ([]byte, bool) {
	cs, cn, ok1 := indexTime(e.CreatedAt)
	ms, mn, ok2 := indexTime(e.ModifiedAt)
	if !ok1 || !ok2 {
		return b, false
	}
	start := len(b)
	for _, v := range []uint32{cs, cn, ms, mn, e.Dev, e.Inode, uint32(e.Mode), e.UID, e.GID, e.Size} {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	b = append(b, e.Hash[:]...)
	flags := uint16(e.Stage&0x3) << 12
	flags |= uint16(min(len(e.Name), entryNameMask))
	if extended(e) {
		b = binary.BigEndian.AppendUint16(b, flags|entryExtendedFlag)
		var ext uint16
		if e.IntentToAdd {
			ext |= intentToAddFlag
		}
		if e.SkipWorktree {
			ext |= skipWorktreeFlag
		}
		b = binary.BigEndian.AppendUint16(b, ext)
	} else {
		b = binary.BigEndian.AppendUint16(b, flags)
	}
	b = append(b, e.Name...)
	n := len(b) - start
	for range 8 - n%8 {
		b = append(b, 0)
	}
	return b, true
}

// indexTime splits t as the index stores it: seconds and nanoseconds, zero for a zero time.
func indexTime(t time.Time) (uint32, uint32, bool) {
	if t.IsZero() {
		return 0, 0, true
	}
	if t.Unix() < 0 || t.Unix() > 1<<32-1 {
		return 0, 0, false
	}
	return uint32(t.Unix()), uint32(t.Nanosecond()), true
}
