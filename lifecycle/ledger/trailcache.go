package ledger

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/atomicfile"
)

// maxTrailCache bounds the trail cache file read back; a larger one is ignored.
const maxTrailCache = 32 << 20

// trailCache remembers which skill folders each plain git commit on the publish branch
// changed, keyed by commit id, because finding out means diffing two large trees. Commits
// skillgit wrote say so in their trailers and are never cached. It lives under the git
// directory and is safe to delete.
type trailCache struct {
	file    string
	known   map[gitstore.Hash][]string
	changed bool
}

func (t Trail) TrailCache() *trailCache {
	c := &trailCache{known: map[gitstore.Hash][]string{}}
	d := t.b.Git.CommonDir()
	if d == "" {
		return c
	}
	sum := sha1.Sum([]byte(t.b.Config.SkillsDir))
	c.file = filepath.Join(d, "skillgit", "cache", "trail-v1-"+hex.EncodeToString(sum[:4])+".txt")
	c.load()
	return c
}

func (c *trailCache) load() {
	data, err := os.ReadFile(c.file)
	if err != nil || len(data) > maxTrailCache {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || len(fields[0]) != 40 {
			continue
		}
		h, err := hex.DecodeString(fields[0])
		if err != nil || !validNames(fields[1:]) {
			continue
		}
		c.known[gitstore.Hash(h)] = fields[1:]
	}
}

func validNames(names []string) bool {
	for _, n := range names {
		if catalog.ValidateName(n) != nil {
			return false
		}
	}
	return true
}

func (c *trailCache) Get(h gitstore.Hash) ([]string, bool) {
	names, ok := c.known[h]
	return names, ok
}

func (c *trailCache) put(h gitstore.Hash, names []string) {
	if !validNames(names) {
		return
	}
	c.known[h] = names
	c.changed = true
}

// save writes the cache back when it learned something; failing to write never fails the
// command.
func (c *trailCache) Save() {
	if c.file == "" || !c.changed {
		return
	}
	lines := make([]string, 0, len(c.known))
	for h, names := range c.known {
		lines = append(lines, strings.Join(append([]string{h.String()}, names...), " "))
	}
	sort.Strings(lines)
	_ = atomicfile.Write(c.file, []byte(strings.Join(lines, "\n")+"\n"), atomicfile.Options{})
}
