package published

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
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// maxProvenanceCache bounds the provenance cache file read back; a larger one is ignored.
const maxProvenanceCache = 4 << 20

// packValue is what a cached NAME@COMMIT must look like.
var packValue = lazyregexp.New(`^[a-z0-9][a-z0-9._-]{0,99}@[0-9a-f]{40}$`)

// provenanceCache keeps the last answer of PackProvenance: which skills came from which pack,
// for one tip of the publish branch and one set of skills asked about, so that listing the
// same branch again does not read its history again. It lives under the git directory, holds
// one entry, and is safe to delete.
type provenanceCache struct {
	file string
	key  string
}

// provenanceCacheFor is the cache entry of the skills pending at the publish branch's tip.
func (c *Channel) provenanceCacheFor(pending map[string]bool) provenanceCache {
	d := c.git.CommonDir()
	if d == "" {
		return provenanceCache{}
	}
	names := make([]string, 0, len(pending))
	for n := range pending {
		names = append(names, n)
	}
	sort.Strings(names)
	sum := sha1.Sum([]byte(c.v.Config.SkillsDir + "\n" + strings.Join(names, "\n")))
	return provenanceCache{file: filepath.Join(d, "skillgit", "cache", "provenance-v1.txt"),
		key: c.v.Commit.String() + " " + hex.EncodeToString(sum[:])}
}

// get returns the cached answer, if the file holds one for this key and reads back whole.
func (c provenanceCache) get() (map[string]string, bool) {
	if c.file == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.file)
	if err != nil || len(data) > maxProvenanceCache {
		return nil, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() || sc.Text() != c.key {
		return nil, false
	}
	out := map[string]string{}
	for sc.Scan() {
		name, pack, ok := strings.Cut(sc.Text(), " ")
		if !ok || catalog.ValidateName(name) != nil || !packValue().MatchString(pack) {
			return nil, false
		}
		out[name] = pack
	}
	return out, sc.Err() == nil
}

// put stores the answer; a failure only means the next listing reads the history again.
func (c provenanceCache) put(m map[string]string) {
	if c.file == "" {
		return
	}
	lines := make([]string, 0, len(m))
	for n, p := range m {
		if catalog.ValidateName(n) != nil || !packValue().MatchString(p) {
			return // what could not be read back whole is not kept
		}
		lines = append(lines, n+" "+p)
	}
	sort.Strings(lines)
	_ = os.MkdirAll(filepath.Dir(c.file), 0o755)
	_ = writeFileAtomic(c.file, []byte(c.key+"\n"+strings.Join(lines, "\n")))
}
