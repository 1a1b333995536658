package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"

	"github.com/skillgit/skillgit/internal/atomicfile"
)

// Cache keeps scan results in a folder, keyed by the skill's tree object
// id, the base version it was compared with, the RulesetVersion and a
// PolicyHash, so an unchanged skill is not scanned again. Everything in
// the folder can be rebuilt: deleting it costs only time. A Cache is
// safe for concurrent use by goroutines and processes.
type Cache struct {
	// Dir is the cache folder; it is created when the first result is
	// stored.
	Dir string

	// bundles indexes the entries stored together in bundle files, read at the
	// first miss of an entry file (see cache_bundle.go).
	bundles bundleIndex
}

const (
	// cacheFormat changes whenever the layout of an entry does.
	cacheFormat = 2
	// maxCacheEntry bounds an entry: a larger one is not stored, and a
	// larger file is not read.
	maxCacheEntry = 8 << 20
)

// cacheKey is what a cached result depends on.
type cacheKey struct {
	tree, policy, base string
	ruleset            int
}

func newCacheKey(treeID, policyHash, base string) cacheKey {
	return cacheKey{tree: treeID, policy: policyHash, base: base, ruleset: rulesetKey()}
}

// file returns the entry's path: a hash of the key, so that ids from
// outside never become path elements, fanned out over 256 folders.
func (c *Cache) file(k cacheKey) string {
	name := hex.EncodeToString(k.sum())
	return filepath.Join(c.Dir, name[:2], name[2:])
}

// sum hashes the key: the name of its entry file, and its name in a bundle.
func (k cacheKey) sum() []byte {
	return entrySum("skillgit-audit-cache", cacheFormat, k.ruleset, k.tree, k.base, k.policy)
}

// entryName hashes what keys a cache entry into a file name.
func entryName(kind string, format, ruleset int, fields ...string) string {
	return hex.EncodeToString(entrySum(kind, format, ruleset, fields...))
}

// entrySum hashes what keys a cache entry.
func entrySum(kind string, format, ruleset int, fields ...string) []byte {
	h := sha256.New()
	writeField(h, kind)
	writeInt(h, format)
	writeInt(h, ruleset)
	for _, s := range fields {
		writeField(h, s)
	}
	return h.Sum(nil)
}

// Get returns the cached report of the skill whose tree object id is
// treeID, scanned against the base version whose tree object id is base
// ("" for none) under the policy policyHash. A missing, unreadable,
// oversized or corrupt entry, or one stored under another key, is a miss.
func (c *Cache) Get(treeID, policyHash, base string) (*Report, bool) {
	if c == nil || c.Dir == "" || treeID == "" {
		return nil, false
	}
	return c.get(newCacheKey(treeID, policyHash, base))
}

// entryBufs holds read buffers: decoding copies what it keeps, so a
// buffer serves one Get after another.
var entryBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func (c *Cache) get(k cacheKey) (*Report, bool) {
	bp := entryBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 1<<20 {
			entryBufs.Put(bp)
		}
	}()
	data, err := readBounded(c.file(k), maxCacheEntry, (*bp)[:0])
	*bp = data[:0]
	if err != nil {
		return c.fromBundle(k)
	}
	r, err := decodeCacheEntry(data, k)
	if err != nil {
		return nil, false
	}
	return r, true
}

// Put stores r as the report of the skill whose tree object id is treeID,
// scanned against the base version whose tree object id is base ("" for
// none) under the policy policyHash. The entry appears whole or not at
// all: it is written aside and renamed into place.
func (c *Cache) Put(treeID, policyHash, base string, r *Report) error {
	if err := c.checkPut(treeID, r); err != nil {
		return err
	}
	k := newCacheKey(treeID, policyHash, base)
	data, err := encodeEntryBounded(k, r)
	if err != nil {
		return err
	}
	return c.storeError(writeAtomic(c.file(k), data))
}

// checkPut refuses a report that cannot be stored.
func (c *Cache) checkPut(treeID string, r *Report) error {
	switch {
	case c == nil || c.Dir == "":
		return errors.New("audit cache: no folder set; give the cache a folder")
	case treeID == "":
		return errors.New("audit cache: no tree id; only results of a git tree can be cached")
	case r == nil:
		return errors.New("audit cache: no report to store")
	}
	return nil
}

// encodeEntryBounded encodes r under k, if the entry stays within maxCacheEntry.
func encodeEntryBounded(k cacheKey, r *Report) ([]byte, error) {
	data := encodeCacheEntry(k, r)
	if len(data) > maxCacheEntry {
		return nil, fmt.Errorf("audit cache: entry of tree %s is %d bytes, over the limit of %d; it is not cached", k.tree, len(data), maxCacheEntry)
	}
	return data, nil
}

// writeAtomic writes data to a temporary file beside name and renames it
// to name, so that readers see the old file or the new one, never a part.
// It does not sync: after a crash an entry may be empty or cut, which Get
// reads as a miss.
func writeAtomic(name string, data []byte) error {
	return atomicfile.Write(name, data, atomicfile.Options{DirPerm: 0o700})
}

// PolicyHash returns a stable hash of what, besides the skill itself and
// its base version, changes a scan's result: the allow list (its entries
// in order, since the first matching entry gives the reason) and the
// trusted installers (as a set).
func PolicyHash(allow *AllowList, installers []string) string {
	h := sha256.New()
	writeField(h, "skillgit-audit-policy")
	var entries []Allow
	if allow != nil {
		entries = allow.Entries
	}
	writeInt(h, len(entries))
	for _, e := range entries {
		for _, f := range []string{e.Fingerprint, e.Rule, e.Reason, e.Skill, e.Path, e.By, e.Source} {
			writeField(h, f)
		}
	}
	inst := slices.Compact(slices.Sorted(slices.Values(installers)))
	writeInt(h, len(inst))
	for _, s := range inst {
		writeField(h, s)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// writeField writes s with its length first, so that no two lists of
// fields hash alike.
func writeField(w io.Writer, s string) {
	writeInt(w, len(s))
	io.WriteString(w, s)
}

func writeInt(w io.Writer, n int) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	w.Write(b[:])
}
