package published

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/cachefile"
)

// installedCacheVersion changes whenever the cached form changes. The file name also carries
// catalogCacheVersion, which changes with the parser's results, and the file records the build
// that wrote it, so that a new skillgit never trusts what an older one parsed.
const installedCacheVersion = "1"

// maxInstalledCache bounds a cache file read back; a larger one is ignored.
const maxInstalledCache = 64 << 20

// racyWindow is how recently a SKILL.md may have changed and still be cached. A file changed
// again within the resolution of its timestamps keeps the stamp it had when it was read, so
// only files whose last change is older than the coarsest resolution (two seconds, on FAT)
// are trusted by their stamp.
var racyWindow = 2 * time.Second

// userCacheDir is where the cache folder is; tests replace it.
var userCacheDir = os.UserCacheDir

// installedCache keeps what catalog.Load made of each skill folder directly in one installed
// skills folder, with the stamp of its SKILL.md, so that an unchanged SKILL.md is not read
// again. It lives in the user's cache folder and is safe to delete: a missing, unreadable or
// outdated file is a miss, and a failure to write it is ignored.
type installedCache struct{ file string }

// cachedFolder is the content of one cache file.
type cachedFolder struct {
	// Build and Folder name the skillgit that wrote the file and the skills folder it is about.
	Build, Folder string
	// Skills holds one entry a skill folder, sorted by Dir.
	Skills []cachedSkill
}

// cachedSkill is what catalog.Load made of one skill folder.
type cachedSkill struct {
	// Dir is the name of the skill folder inside the skills folder.
	Dir   string
	Stamp fileStamp
	// Skill is nil when the skill does not load.
	Skill    *catalog.Skill
	Problems []catalog.Problem
	// EmptyMetadata tells an empty metadata mapping from none, which gob does not.
	EmptyMetadata bool

	// entry is the folder's entry in the listing of the skills folder, and fresh reports that
	// the folder was loaded now rather than taken from the cache.
	entry fs.DirEntry
	fresh bool
}

// fileStamp is what Lstat tells of a SKILL.md: a rewrite changes it, unless it keeps the size
// and comes within the resolution of the timestamps (see racyWindow). The change time, inode
// and device are filled where the system tells them (Linux), and zero elsewhere.
type fileStamp struct {
	Size, ModTime, ChangeTime int64
	Mode                      uint32
	Ino, Dev                  uint64
}

// newInstalledCache returns the cache of skills folder dir, an absolute path, and false when
// the user has no cache folder.
func newInstalledCache(dir string) (installedCache, bool) {
	base, err := userCacheDir()
	if err != nil || base == "" {
		return installedCache{}, false
	}
	sum := sha256.Sum256([]byte(dir))
	name := hex.EncodeToString(sum[:]) + "-v" + installedCacheVersion + "." + catalogCacheVersion + ".gob"
	return installedCache{file: filepath.Join(base, "skillgit", "installed", name)}, true
}

// get returns the cached skill folders of skills folder dir by name; a missing or unusable
// file is an empty map.
func (c installedCache) get(dir string) map[string]*cachedSkill {
	out := map[string]*cachedSkill{}
	data, ok := cachefile.Read(c.file, maxInstalledCache)
	if !ok {
		return out
	}
	var cf cachedFolder
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&cf); err != nil || cf.Build != cachefile.BuildID() || cf.Folder != dir {
		return out
	}
	for i := range cf.Skills {
		cs := &cf.Skills[i]
		if cs.EmptyMetadata && cs.Skill != nil {
			cs.Skill.Metadata = map[string]string{}
		}
		out[cs.Dir] = cs
	}
	return out
}

// put stores the skill folders of skills folder dir; failing to write the cache never fails
// the command.
func (c installedCache) put(dir string, skills []*cachedSkill) {
	cf := cachedFolder{Build: cachefile.BuildID(), Folder: dir, Skills: make([]cachedSkill, 0, len(skills))}
	for _, cs := range skills {
		if cs.Skill != nil && cs.Skill.Metadata != nil && len(cs.Skill.Metadata) == 0 {
			cs.EmptyMetadata = true
		}
		cf.Skills = append(cf.Skills, *cs)
	}
	slices.SortFunc(cf.Skills, func(a, b cachedSkill) int { return strings.Compare(a.Dir, b.Dir) })
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&cf); err != nil {
		return
	}
	_ = writeFileAtomic(c.file, buf.Bytes())
}

// trusted reports whether a stamp is old enough to stand for the content read with it.
func (s fileStamp) trusted(now time.Time) bool {
	changed := time.Unix(0, max(s.ModTime, s.ChangeTime))
	return now.Sub(changed) >= racyWindow
}
