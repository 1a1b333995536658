package pathcheck

import (
	"bytes"
	"crypto/sha256"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/cachefile"
)

// pathPassKeyLen is the length of a key of the pass cache: a SHA-256.
const pathPassKeyLen = sha256.Size

// maxPathPasses bounds the pass cache: past it, a write keeps only the passes new to its run.
const maxPathPasses = 1 << 20

// maxCacheFile bounds the cache file read back; a larger one is ignored.
const maxCacheFile = 64 << 20

// pathPassMagic begins the pass cache file; the build and policy version follow on the line.
const pathPassMagic = "skillgit path policy passes "

// Checker applies the path policy to skill folders of git trees, as Tree does,
// and remembers the folders that passed, so that a folder already checked is not walked
// again: a sync of 10,000 unchanged skills would otherwise read every folder's tree.
//
// A pass is keyed by the skill's path and its folder's tree id, which names every path below
// it, and is kept in the git directory with the build of skillgit and the policy version
// (catalog.PathPolicyVersion) it was made under: another build or version trusts none of it.
// Only passes are kept; a refused or unreadable folder is checked every time, so that its
// error is always the one the policy gives. Safe for concurrent use.
type Checker struct {
	g    *gitstore.Repo
	file string
	// known is the sorted keys read from the file, pathPassKeyLen bytes each.
	known []byte
	mu    sync.Mutex
	fresh map[[pathPassKeyLen]byte]bool
}

// New returns a checker of g's trees backed by the pass cache of its git directory; with no
// git directory, it checks every folder. Call Save once the checks are done.
func New(g *gitstore.Repo) *Checker {
	c := &Checker{g: g, fresh: map[[pathPassKeyLen]byte]bool{}}
	if d := g.CommonDir(); d != "" {
		c.file = filepath.Join(d, "skillgit", "cache", "pathpolicy-v1.bin")
		c.known = readPathPasses(c.file)
	}
	return c
}

// Check applies the path policy to skill folder dir, whose tree is folder, unless the cache
// says that this folder at this path passed and the folder's tree is still stored: a folder
// whose object went missing is walked, so that the error reading it is the one returned.
func (c *Checker) Check(dir string, folder gitstore.Hash) error {
	k := pathPassKey(dir, folder)
	if c.has(k) && c.g.Objects().Has(folder) {
		return nil
	}
	err := Tree(c.g, dir, folder)
	if err == nil {
		c.mu.Lock()
		c.fresh[k] = true
		c.mu.Unlock()
	}
	return err
}

// Save writes the passes found by this checker into the cache, with those it held, unless
// there are none new; failing to write never fails the command. Two runs saving at once
// each write a whole file, so one's new passes may be lost: they are checked again later.
func (c *Checker) Save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file == "" || len(c.fresh) == 0 {
		return
	}
	keys := make([][]byte, 0, len(c.known)/pathPassKeyLen+len(c.fresh))
	if len(c.known)/pathPassKeyLen+len(c.fresh) <= maxPathPasses {
		for k := range slices.Chunk(c.known, pathPassKeyLen) {
			keys = append(keys, k)
		}
	}
	for k := range c.fresh {
		keys = append(keys, k[:])
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	_ = atomicfile.Write(c.file, encodePathPasses(keys), atomicfile.Options{})
}

func (c *Checker) has(k [pathPassKeyLen]byte) bool {
	n := len(c.known) / pathPassKeyLen
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch bytes.Compare(c.known[mid*pathPassKeyLen:(mid+1)*pathPassKeyLen], k[:]) {
		case 0:
			return true
		case -1:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return false
}

// pathPassKey hashes a skill's path and its folder's tree id.
func pathPassKey(dir string, folder gitstore.Hash) [pathPassKeyLen]byte {
	h := sha256.New()
	h.Write([]byte(dir))
	h.Write([]byte{0})
	h.Write(folder[:])
	var k [pathPassKeyLen]byte
	h.Sum(k[:0])
	return k
}

// pathPassHeader is the first line of the cache file: what must match for its passes to hold.
func pathPassHeader() []byte {
	return []byte(pathPassMagic + strconv.Itoa(catalog.PathPolicyVersion) + " " + strconv.Quote(cachefile.BuildID()) + "\n")
}

// readPathPasses returns the sorted keys of the cache file, or nil when it is missing, of
// another build or policy version, or damaged.
func readPathPasses(name string) []byte {
	data, ok := cachefile.Read(name, maxCacheFile)
	if !ok {
		return nil
	}
	keys, ok := bytes.CutPrefix(data, pathPassHeader())
	if !ok || len(keys)%pathPassKeyLen != 0 {
		return nil
	}
	for i := pathPassKeyLen; i < len(keys); i += pathPassKeyLen {
		if bytes.Compare(keys[i-pathPassKeyLen:i], keys[i:i+pathPassKeyLen]) >= 0 {
			return nil
		}
	}
	return keys
}

func encodePathPasses(keys [][]byte) []byte {
	head := pathPassHeader()
	out := make([]byte, 0, len(head)+len(keys)*pathPassKeyLen)
	out = append(out, head...)
	for _, k := range keys {
		out = append(out, k...)
	}
	return out
}
