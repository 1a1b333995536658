package published

import (
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/cachefile"
)

// catalogCacheVersion changes whenever the cached form or the parser's results change. Version
// 6 writes metadata in key order, so that equal mappings read back as one shared map. Version
// 5 is the form of catalog_codec.go, which replaced gob. Version 4 marks the problems that are
// git objects which could not be read, and never stores them; version 3 stored them, so that a
// repaired object stayed broken in its entries.
const catalogCacheVersion = "6"

// maxCatalogCache bounds a cache file read back; a larger one is ignored.
const maxCatalogCache = 64 << 20

// catalogCache keeps Discover results keyed by the skills folder's tree id, with paths
// relative to that folder, so that one entry serves the folder wherever it is. It lives under the
// git directory and is safe to delete: a missing or unreadable entry is a miss. Entries are in
// a form of their own (catalog_codec.go), not gob or JSON: decoding is most of what a warm
// `skillgit list` spends, and encoding is on the path of every cold one; for 10,000 skills
// this form takes a few milliseconds each way, gob tens.
type catalogCache struct{ dir string }

// catalogCacheOf is the catalog cache of the repository whose common git directory is
// gitDir; "" (a repository held in memory) has none.
func catalogCacheOf(gitDir string) catalogCache {
	if d := gitDir; d != "" {
		return catalogCache{dir: filepath.Join(d, "skillgit", "cache")}
	}
	return catalogCache{}
}

func (c catalogCache) file(tree gitstore.Hash) string {
	return filepath.Join(c.dir, "catalog-v"+catalogCacheVersion+"-"+tree.String()+".bin")
}

func (c catalogCache) get(tree gitstore.Hash) (*catalog.Result, bool) {
	if c.dir == "" {
		return nil, false
	}
	// The result refers to data, which is not touched again.
	data, ok := cachefile.Read(c.file(tree), maxCatalogCache)
	if !ok {
		return nil, false
	}
	res, ok := decodeCatalog(data)
	if !ok || !cacheable(res) {
		return nil, false
	}
	return res, true
}

// raw returns the encoded listing cached for tree, undecoded.
func (c catalogCache) raw(tree gitstore.Hash) ([]byte, bool) {
	if c.dir == "" {
		return nil, false
	}
	return cachefile.Read(c.file(tree), maxCatalogCache)
}

// put stores a result, unless a git object could not be read for it; failing to write the
// cache never fails the command.
func (c catalogCache) put(tree gitstore.Hash, res *catalog.Result) {
	if c.dir == "" || !cacheable(res) {
		return
	}
	if writeFileAtomic(c.file(tree), encodeCatalog(res)) == nil {
		c.prune(filepath.Base(c.file(tree)))
	}
}

// latestFile names the entry written last, from which the next listing is derived.
func (c catalogCache) latestFile() string {
	return filepath.Join(c.dir, "catalog-v"+catalogCacheVersion+"-latest")
}

// latest returns the tree whose listing was cached last.
func (c catalogCache) latest() (gitstore.Hash, bool) {
	if c.dir == "" {
		return gitstore.ZeroHash, false
	}
	data, err := os.ReadFile(c.latestFile())
	if err != nil || len(data) != 40 {
		return gitstore.ZeroHash, false
	}
	h := plumbing.NewHash(string(data))
	return h, !h.IsZero() && h.String() == string(data)
}

// setLatest records tree as the listing cached last.
func (c catalogCache) setLatest(tree gitstore.Hash) {
	if c.dir != "" {
		_ = writeFileAtomic(c.latestFile(), []byte(tree.String()))
	}
}

// writeFileAtomic writes data beside name and renames it into place.
func writeFileAtomic(name string, data []byte) error {
	return atomicfile.Write(name, data, atomicfile.Options{})
}
