package targetdir

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"strconv"
	"strings"
)

// A stamp is what lstat says of one entry of an installed skill: its size, modification and
// change times in nanoseconds, inode and mode. A manifest entry keeps, next to the written
// hash, a record of the stamps of every folder, file and link of its skill taken when that
// content was written or last hashed, so that a sync trusts a folder whose every entry still
// has its stamp instead of hashing it again, as git's index does with the stat data of
// tracked files.
//
// Editing a file changes its change time, which no user can set back; adding, removing or
// renaming an entry changes the times of the folder holding it. So matching stamps mean an
// unchanged folder, except for a change made in the same tick of the file system's clock as
// a stamp was taken: a folder with an entry whose modification or change time is not older
// than the manifest file, which is written after every stamp it records, is "racy" and is
// hashed anyway.
type stamp struct {
	size, mtime, ctime int64
	ino                uint64
	mode               uint32
	// path is the entry's path inside the skill folder; "." for the folder itself.
	path string
}

// stampRecord is the record of a folder's stamps in its manifest entry: the first 128 bits
// of a SHA-256 of every stamp in walk order (the folder first), in hex; the newest
// modification or change time among them; and the path of each entry after the folder, on a
// line of its own, so that a sync knows what to stat:
//
//	"<digest> <newest>\nSKILL.md\nscripts\nscripts/run.sh"
type stampRecord struct {
	digest string
	newest int64
	paths  []string
}

// encodeStamps makes the manifest record of stamps, the folder's own first; "" when there is
// none, or when a path could not be recorded on a line of its own.
func encodeStamps(stamps []stamp) string {
	if len(stamps) == 0 || stamps[0].path != "." {
		return ""
	}
	var b strings.Builder
	b.WriteString(stampDigest(stamps))
	b.WriteByte(' ')
	b.WriteString(strconv.FormatInt(newestOf(stamps), 10))
	for _, s := range stamps[1:] {
		if s.path == "." || strings.ContainsRune(s.path, '\n') {
			return ""
		}
		b.WriteByte('\n')
		b.WriteString(s.path)
	}
	return b.String()
}

// parseStamps reads a manifest record of stamps; ok is false for anything malformed, and for
// a path that could leave the skill folder.
func parseStamps(text string) (r stampRecord, ok bool) {
	head, rest, more := strings.Cut(text, "\n")
	digest, newest, found := strings.Cut(head, " ")
	if !found || len(digest) != 32 {
		return r, false
	}
	n, err := strconv.ParseInt(newest, 10, 64)
	if err != nil {
		return r, false
	}
	r = stampRecord{digest: digest, newest: n}
	if more {
		r.paths = strings.Split(rest, "\n")
	}
	for _, p := range r.paths {
		if p == "." || !fs.ValidPath(p) {
			return r, false
		}
	}
	return r, true
}

// stampDigest hashes stamps in order.
func stampDigest(stamps []stamp) string {
	sum := stampSum(stamps)
	return hex.EncodeToString(sum[:])
}

// stampSum is the digest of stamps, undecoded: the first 128 bits of a SHA-256 of each
// stamp's path, a NUL, and its size, times, inode and mode as 64-bit little-endian numbers.
func stampSum(stamps []stamp) [16]byte {
	sum, _ := stampSumInto(stamps, nil)
	return sum
}

// stampSumInto is stampSum, laying out what it hashes in buf, which it returns to be used
// again.
func stampSumInto(stamps []stamp, buf []byte) ([16]byte, []byte) {
	buf = buf[:0]
	for _, s := range stamps {
		buf = append(buf, s.path...)
		buf = append(buf, 0)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.size))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.mtime))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.ctime))
		buf = binary.LittleEndian.AppendUint64(buf, s.ino)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.mode))
	}
	full := sha256.Sum256(buf)
	return [16]byte(full[:16]), buf
}

// hexEqual reports whether digest is sum in lowercase hex.
func hexEqual(sum [16]byte, digest string) bool {
	var text [32]byte
	hex.Encode(text[:], sum[:])
	return string(text[:]) == digest
}

func newestOf(stamps []stamp) int64 {
	var n int64
	for _, s := range stamps {
		n = max(n, s.mtime, s.ctime)
	}
	return n
}

// stampOf returns the stamp of entry rel described by info; ok is false where the system
// gives no inode and change time, and then nothing is trusted without hashing.
func stampOf(rel string, info fs.FileInfo) (stamp, bool) {
	s, ok := sysStamp(info)
	s.path = rel
	return s, ok
}

// stampsRacy reports whether a record of stamps is racy against ref, the modification time
// of the manifest in nanoseconds, or cannot be read.
func stampsRacy(text string, ref int64) bool {
	r, ok := parseStamps(text)
	return !ok || r.newest >= ref
}

// stampWalk collects the stamps of a folder as it is written or hashed, in walk order.
type stampWalk struct {
	stamps []stamp
	ok     bool
}

func newStampWalk() *stampWalk { return &stampWalk{ok: true} }

// add records entry rel from info; an entry the system cannot stamp spoils the whole walk.
func (w *stampWalk) add(rel string, info fs.FileInfo) {
	if w == nil || !w.ok {
		return
	}
	s, ok := stampOf(rel, info)
	if !ok {
		w.ok = false
		return
	}
	w.stamps = append(w.stamps, s)
}

// result is the record of the stamps, or "" when any entry could not be stamped.
func (w *stampWalk) result() string {
	if w == nil || !w.ok {
		return ""
	}
	return encodeStamps(w.stamps)
}
