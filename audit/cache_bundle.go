package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A bundle holds the entries of many skills in one file, so that a run that scans thousands of
// skills (the first sync of a large repository) writes a few files instead of one per skill.
// Layout:
//
//	magic "SGAB", format byte
//	4-byte big-endian count
//	256 × 4-byte big-endian fan-out: how many records have a key sum whose first byte is at
//	most the entry's index
//	256 × 4-byte big-endian CRC-32 (Castagnoli) of the records of each first byte
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it: the head
//	count × record: 32-byte key sum, 4-byte offset, 4-byte length; sorted by key sum
//	the entries, each in the per-skill encoding with its own key and checksum, at its offset
//	counted from the end of the records
//
// A reader checks the head, the records of a first byte when it first looks one up there, and
// each entry it reads, so a damaged bundle is a miss, never a wrong hit, and looking one skill
// up in a bundle of many reads the head and the few records of its first byte.
const (
	bundleMagic  = "SGAB"
	bundleFormat = 2
	// bundleFolder is the subfolder of Cache.Dir that holds bundles.
	bundleFolder = "bundles"
	// maxBundleBytes bounds the entries of a bundle: a batch that gathers more writes a bundle
	// and starts the next, so that it never holds much in memory.
	maxBundleBytes = 8 << 20
	// maxBundleCount bounds the records of a bundle, written or read.
	maxBundleCount = 1 << 16
	// maxBundles bounds how many bundles are kept: storing one more removes the least recently
	// used.
	maxBundles = 64
	// minBundle is the fewest entries a batch stores as a bundle; fewer get files of their own.
	minBundle = 16
	// bundleRecordSize is the size of one record of a bundle's index.
	bundleRecordSize = 32 + 4 + 4
	// bundleHeadSize is the size of a bundle's head, up to its records.
	bundleHeadSize = len(bundleMagic) + 1 + 4 + 2*256*4 + 4
)

// bundleRecord locates one entry in a bundle.
type bundleRecord struct {
	sum    [32]byte
	off, n uint32
}

// bundleFile is the index of one bundle file, whose records are read a first byte at a time.
type bundleFile struct {
	path string
	// data is where the entries start in the file.
	data int64
	mod  time.Time
	// fan and sums are the head's fan-out and the checksums of the records of each first
	// byte.
	fan, sums [256]uint32
	// mu guards buckets and read: the records of each first byte once read, none when they
	// cannot be read.
	mu      sync.Mutex
	buckets [256][]bundleRecord
	read    [256]bool
	// touched is set once a hit has renewed the bundle's time.
	touched atomic.Bool
}

// bundleIndex holds the indexes of a cache's bundles, newest first, once read.
type bundleIndex struct {
	mu     sync.Mutex
	loaded bool
	files  []*bundleFile
}

// fromBundle returns the report stored for k in a bundle, if one holds it.
func (c *Cache) fromBundle(k cacheKey) (*Report, bool) {
	var sum [32]byte
	copy(sum[:], k.sum())
	for _, f := range c.bundles.list(c.Dir) {
		if r, ok := f.get(sum, k); ok {
			return r, true
		}
	}
	return nil, false
}

// list returns the bundles' indexes, reading them first when they are not read yet. The
// indexes never change once read, so lookups in them need no lock.
func (x *bundleIndex) list(dir string) []*bundleFile {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.loaded {
		x.files = readBundleIndexes(filepath.Join(dir, bundleFolder))
		x.loaded = true
	}
	return x.files
}

// forget drops the indexes read, so the next miss reads them again with the bundles stored
// since.
func (x *bundleIndex) forget() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.loaded, x.files = false, nil
}

// get reads the entry of sum from the bundle, as the report for k.
func (f *bundleFile) get(sum [32]byte, k cacheKey) (*Report, bool) {
	records := f.bucket(sum[0])
	i, found := slices.BinarySearchFunc(records, sum, func(r bundleRecord, s [32]byte) int {
		return bytes.Compare(r.sum[:], s[:])
	})
	if !found {
		return nil, false
	}
	rec := records[i]
	data, err := readAt(f.path, f.data+int64(rec.off), int(rec.n))
	if err != nil {
		return nil, false
	}
	r, err := decodeCacheEntry(data, k)
	if err != nil {
		return nil, false
	}
	if time.Since(f.mod) > touchAfter && f.touched.CompareAndSwap(false, true) {
		touch(f.path)
	}
	return r, true
}

// bucket returns the records whose key sums start with b, reading them the first time; none
// when they cannot be read or are damaged.
func (f *bundleFile) bucket(b byte) []bundleRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.read[b] {
		// A bucket that cannot be read is a miss.
		f.buckets[b], _ = f.readBucket(b)
		f.read[b] = true
	}
	return f.buckets[b]
}

// readBucket reads and checks the records whose key sums start with b.
func (f *bundleFile) readBucket(b byte) ([]bundleRecord, error) {
	from := uint32(0)
	if b > 0 {
		from = f.fan[b-1]
	}
	n := int(f.fan[b] - from)
	if n == 0 {
		return nil, nil
	}
	raw, err := readAt(f.path, int64(bundleHeadSize)+int64(from)*bundleRecordSize, n*bundleRecordSize)
	if err != nil {
		return nil, err
	}
	if crc32.Checksum(raw, castagnoli) != f.sums[b] {
		return nil, fmt.Errorf("%w: bundle records checksum mismatch", errCorrupt)
	}
	records := make([]bundleRecord, n)
	for i := range records {
		r, at := &records[i], raw[i*bundleRecordSize:]
		copy(r.sum[:], at[:32])
		r.off, r.n = binary.BigEndian.Uint32(at[32:]), binary.BigEndian.Uint32(at[36:])
		if r.sum[0] != b || (i > 0 && bytes.Compare(records[i-1].sum[:], r.sum[:]) >= 0) {
			return nil, fmt.Errorf("%w: bundle records out of order", errCorrupt)
		}
	}
	return records, nil
}

// readAt reads n bytes at off of the file name, without following a symbolic link.
func readAt(name string, off int64, n int) ([]byte, error) {
	if n > maxCacheEntry {
		return nil, fmt.Errorf("%s: entry of %d bytes is over the limit", name, n)
	}
	f, err := openEntryFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, err
	}
	return buf, nil
}

// readBundleIndexes reads the index of every bundle in dir, newest first; a bundle that cannot
// be read is left out.
func readBundleIndexes(dir string) []*bundleFile {
	var files []*bundleFile
	for _, a := range agedFiles(dir) {
		f, err := readBundleIndex(filepath.Join(dir, a.name))
		if err != nil {
			continue
		}
		f.mod = a.mod
		files = append(files, f)
		if len(files) == maxBundles {
			break
		}
	}
	return files
}

// readBundleIndex reads and checks the head of the bundle at path.
func readBundleIndex(path string) (*bundleFile, error) {
	file, err := openEntryFile(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	head := make([]byte, bundleHeadSize)
	if _, err := file.ReadAt(head, 0); err != nil {
		return nil, err
	}
	return decodeBundleHead(path, head)
}

// decodeBundleHead checks a bundle's head and returns the bundle's index, none of its records
// read yet.
func decodeBundleHead(path string, head []byte) (*bundleFile, error) {
	body, sum := head[:len(head)-4], binary.BigEndian.Uint32(head[len(head)-4:])
	if string(head[:len(bundleMagic)]) != bundleMagic || head[len(bundleMagic)] != bundleFormat {
		return nil, fmt.Errorf("%w: not a bundle", errCorrupt)
	}
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: bundle head checksum mismatch", errCorrupt)
	}
	at := len(bundleMagic) + 1
	count := binary.BigEndian.Uint32(head[at:])
	if count > maxBundleCount {
		return nil, fmt.Errorf("%w: %d records", errCorrupt, count)
	}
	f := &bundleFile{path: path, data: int64(bundleHeadSize) + int64(count)*bundleRecordSize}
	for i := range 256 {
		f.fan[i] = binary.BigEndian.Uint32(head[at+4+4*i:])
		f.sums[i] = binary.BigEndian.Uint32(head[at+4+1024+4*i:])
		if i > 0 && f.fan[i] < f.fan[i-1] {
			return nil, fmt.Errorf("%w: bundle fan-out out of order", errCorrupt)
		}
	}
	if f.fan[255] != count {
		return nil, fmt.Errorf("%w: bundle fan-out does not end at its count", errCorrupt)
	}
	return f, nil
}

// A Batch stores the reports of one run: a few in entry files of their own, many together in
// bundles. Reports put in a batch are stored when it is flushed, or earlier when it has
// gathered maxBundleBytes; Get sees them once stored. A Batch is safe for concurrent use.
type Batch struct {
	c     *Cache
	mu    sync.Mutex
	items []bundleItem
	size  int
	// limit is the entry bytes that make a bundle; maxBundleBytes unless a test sets less.
	limit int
}

// bundleItem is one encoded entry waiting in a batch.
type bundleItem struct {
	sum   [32]byte
	entry []byte
}

// NewBatch returns an empty batch that stores into c.
func (c *Cache) NewBatch() *Batch {
	return &Batch{c: c, limit: maxBundleBytes}
}

// Put adds r to the batch as the report of the skill whose tree object id is treeID, scanned
// against the base version base ("" for none) under the policy policyHash; see Cache.Put.
func (b *Batch) Put(treeID, policyHash, base string, r *Report) error {
	if err := b.c.checkPut(treeID, r); err != nil {
		return err
	}
	k := newCacheKey(treeID, policyHash, base)
	entry, err := encodeEntryBounded(k, r)
	if err != nil {
		return err
	}
	it := bundleItem{entry: entry}
	copy(it.sum[:], k.sum())
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items = append(b.items, it)
	b.size += len(entry)
	if b.size >= b.limit || len(b.items) >= maxBundleCount {
		return b.flush()
	}
	return nil
}

// Flush stores what the batch holds.
func (b *Batch) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flush()
}

func (b *Batch) flush() error {
	items := b.items
	b.items, b.size = nil, 0
	if len(items) == 0 {
		return nil
	}
	if len(items) < minBundle {
		var errs []error
		for _, it := range items {
			if err := writeAtomic(b.c.fileOfSum(it.sum[:]), it.entry); err != nil {
				errs = append(errs, err)
			}
		}
		return b.c.storeError(errors.Join(errs...))
	}
	data := encodeBundle(items)
	name := sha256.Sum256(data)
	if err := writeAtomic(filepath.Join(b.c.Dir, bundleFolder, hex.EncodeToString(name[:16])), data); err != nil {
		return b.c.storeError(err)
	}
	b.c.bundles.forget()
	b.c.prune(bundleFolder, maxBundles)
	return nil
}

// encodeBundle lays items out as a bundle; of items with the same key, the last one put is kept.
func encodeBundle(items []bundleItem) []byte {
	slices.SortStableFunc(items, func(a, b bundleItem) int { return bytes.Compare(a.sum[:], b.sum[:]) })
	uniq := items[:0]
	for _, it := range items {
		if n := len(uniq); n > 0 && uniq[n-1].sum == it.sum {
			uniq[n-1] = it
			continue
		}
		uniq = append(uniq, it)
	}
	var fan, sums [256]uint32
	records := make([]byte, 0, len(uniq)*bundleRecordSize)
	off := 0
	for _, it := range uniq {
		records = append(records, it.sum[:]...)
		records = binary.BigEndian.AppendUint32(records, uint32(off))
		records = binary.BigEndian.AppendUint32(records, uint32(len(it.entry)))
		off += len(it.entry)
		fan[it.sum[0]]++
	}
	from := 0
	for i := range fan {
		n := int(fan[i])
		sums[i] = crc32.Checksum(records[from*bundleRecordSize:(from+n)*bundleRecordSize], castagnoli)
		from += n
		fan[i] = uint32(from)
	}
	b := append([]byte(bundleMagic), bundleFormat)
	b = binary.BigEndian.AppendUint32(b, uint32(len(uniq)))
	for _, v := range fan {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	for _, v := range sums {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	b = append(b, records...)
	for _, it := range uniq {
		b = append(b, it.entry...)
	}
	return b
}

// fileOfSum is the entry file of the key whose sum is sum.
func (c *Cache) fileOfSum(sum []byte) string {
	name := hex.EncodeToString(sum)
	return filepath.Join(c.Dir, name[:2], name[2:])
}

// storeError says what to do about a result that could not be stored.
func (c *Cache) storeError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("audit cache: %w; delete %s if it keeps failing", err, c.Dir)
}

// agedFile is a file of a cache subfolder and when it was last used.
type agedFile struct {
	name string
	mod  time.Time
}

// agedFiles lists the entries of dir, most recently used first, and removes temporary files
// left by writers that stopped long ago.
func agedFiles(dir string) []agedFile {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []agedFile
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if strings.HasPrefix(e.Name(), ".tmp-") {
			if time.Since(fi.ModTime()) > time.Hour {
				os.Remove(filepath.Join(dir, e.Name()))
			}
			continue
		}
		files = append(files, agedFile{e.Name(), fi.ModTime()})
	}
	slices.SortFunc(files, func(a, b agedFile) int { return b.mod.Compare(a.mod) })
	return files
}

// prune removes the least recently used entries of the subfolder beyond keep. Failures are
// ignored: what stays is only disk space, and the next store tries again.
func (c *Cache) prune(folder string, keep int) {
	dir := filepath.Join(c.Dir, folder)
	files := agedFiles(dir)
	for _, f := range files[min(keep, len(files)):] {
		os.Remove(filepath.Join(dir, f.name))
	}
}
