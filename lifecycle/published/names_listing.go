package published

import (
	"bytes"
	"io/fs"
	"sync"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// lazyListing is the listing of tree, carried forward in this process or cached, read only as
// far as lookups need. A single lookup in a large cached listing looks for the name's bytes in
// the file and decodes it only when they are there; once a process has looked up a few names
// in one listing (a batch of publishes looks up every skill it publishes), it decodes the
// listing and keeps it.
type lazyListing struct {
	cache catalogCache
	tree  gitstore.Hash
	data  []byte
	res   *catalog.Result
}

// Lookups in one listing scan its bytes at most scansBeforeDecode times in a process before it
// is decoded; a listing of less than decodeBelow bytes is decoded at once.
const (
	scansBeforeDecode = 4
	decodeBelow       = 1 << 20
)

// decodedListing is the listing decoded or carried forward last, shared and never changed,
// and how often the bytes of the cached one being looked up were scanned.
var decodedListing = struct {
	sync.Mutex
	tree  gitstore.Hash
	res   *catalog.Result
	scans int
	// carried counts the folders the listing was carried forward over since one was cached.
	carried int
}{}

// skill returns the skill called n in the listing, nil for none; ok is false when the
// listing cannot be read.
func (l *lazyListing) skill(n string) (*catalog.Skill, bool) {
	if l.res == nil {
		l.res = l.kept()
	}
	if l.res == nil {
		if !l.load() {
			return nil, false
		}
		if l.scan() && !bytes.Contains(l.data, []byte(n)) {
			return nil, true
		}
		if !l.decode() {
			return nil, false
		}
	}
	return skillNamed(l.res, n), true
}

// decode decodes the cached listing and keeps it as the one decoded last; it reports whether
// the listing could be read.
func (l *lazyListing) decode() bool {
	if !l.load() {
		return false
	}
	res, ok := decodeCatalog(l.data)
	if !ok || !cacheable(res) {
		return false
	}
	l.res = res
	decodedListing.Lock()
	decodedListing.tree, decodedListing.res = l.tree, res
	decodedListing.Unlock()
	return true
}

// load reads the cached listing's bytes once; it reports whether they could be read.
func (l *lazyListing) load() bool {
	if l.data == nil {
		data, ok := l.cache.raw(l.tree)
		if !ok {
			return false
		}
		l.data = data
	}
	return true
}

// storeAfter is how many folders a listing is carried forward over before it is cached: the
// next process starts from the cached one, and catalog.Update gives way to a listing of
// every skill past 200 changed folders.
const storeAfter = 192

// carry brings the listing forward to the skills folder tree, whose folders changes differ
// from the listing's, and keeps it as the one this process looks names up in. Every
// storeAfter folders carried, it caches the listing too. A change Update does not follow
// leaves the listing where it was.
func (l *lazyListing) carry(tree gitstore.Hash, fsys fs.FS, changes []ledger.FolderChange) {
	if l.res == nil && !l.decode() {
		return
	}
	res, ok := catalog.Update(l.res, fsys, changedPaths(changes), listingOptions)
	if !ok || !cacheable(res) {
		return
	}
	decodedListing.Lock()
	decodedListing.tree, decodedListing.res, decodedListing.scans = tree, res, 0
	decodedListing.carried += len(changes)
	store := decodedListing.carried >= storeAfter
	if store {
		decodedListing.carried = 0
	}
	decodedListing.Unlock()
	if store {
		l.cache.put(tree, res)
		l.cache.setLatest(tree)
	}
}

// rollingBase is the version of the skills folder whose listing this process holds decoded,
// and whether it holds one.
func rollingBase() (gitstore.Hash, bool) {
	decodedListing.Lock()
	defer decodedListing.Unlock()
	return decodedListing.tree, decodedListing.res != nil
}

// kept returns the listing as decoded before in this process, or nil.
func (l *lazyListing) kept() *catalog.Result {
	decodedListing.Lock()
	defer decodedListing.Unlock()
	if decodedListing.tree == l.tree {
		return decodedListing.res
	}
	return nil
}

// scan reports whether a lookup should scan the listing's bytes rather than decode it.
func (l *lazyListing) scan() bool {
	if len(l.data) < decodeBelow {
		return false
	}
	decodedListing.Lock()
	defer decodedListing.Unlock()
	if decodedListing.tree != l.tree {
		decodedListing.tree, decodedListing.res, decodedListing.scans = l.tree, nil, 0
	}
	decodedListing.scans++
	return decodedListing.scans <= scansBeforeDecode
}
