package published

import (
	"bytes"
	"errors"
	"io"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/gitstore"
)

// packLockFile is the file `skillgit pack update` keeps on the publish branch: each pack's
// pinned commit and the skills it owns.
const packLockFile = ".skillgit/packs.lock"

// maxPackLock bounds how much of the pack lock is read.
const maxPackLock = 1 << 20

// History reads the first-parent history of from, newest first: for each folder name of
// pending it calls found once with what the commit that last changed the folder (a publish, a
// rollback or a commit made with git) brought: for a publish, the Skillgit-Pack and the skill
// of the candidate it merged, else two empty strings. It stops as soon as none is pending, and
// empties pending as it goes.
type History func(from gitstore.Hash, pending map[string]bool, found func(name, pack, skill string)) error

// PackOwners reads from the pack lock of the channel which pack owns each skill, by folder
// name. A missing or unreadable lock owns nothing: provenance is then simply not shown.
func (c *Channel) PackOwners() map[string]string {
	data, ok, err := c.fileAt(packLockFile, maxPackLock)
	if err != nil || !ok {
		return nil
	}
	var l struct {
		Packs []struct {
			Name   string   `yaml:"name"`
			Skills []string `yaml:"skills"`
		} `yaml:"packs"`
	}
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&l); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	out := map[string]string{}
	for _, p := range l.Packs {
		for _, s := range p.Skills {
			out[s] = p.Name
		}
	}
	return out
}

// PackProvenance tells, for each of the published skills named (by folder name), the skill
// pack version it is: NAME@COMMIT, from the Skillgit-Pack trailer of the candidate whose
// publish last changed the skill's folder. A skill whose folder was last changed otherwise (a
// publish of a candidate not from the pack, a rollback, a commit made with git), or that no
// pack owns in the pack lock any more, is left out. Only the skills the lock gives a pack are
// looked for, and the publish branch's history is read back only until each is found, so a
// repository without packs pays one file lookup. The answer is cached for the branch's tip.
func (c *Channel) PackProvenance(names []string) (map[string]string, error) {
	out := map[string]string{}
	owners := c.PackOwners()
	pending := map[string]bool{}
	for _, n := range names {
		if owners[n] != "" {
			pending[n] = true
		}
	}
	if len(pending) == 0 || c.history == nil {
		return out, nil
	}
	cache := c.provenanceCacheFor(pending)
	if m, ok := cache.get(); ok {
		return m, nil
	}
	err := c.history(c.v.Commit, pending, func(n, pack, skill string) {
		if n == skill && packName(pack) == owners[n] {
			out[n] = pack
		}
	})
	if err == nil {
		cache.put(out)
	}
	return out, err
}

// packName is the NAME of a NAME@COMMIT.
func packName(p string) string {
	for i := range len(p) {
		if p[i] == '@' {
			return p[:i]
		}
	}
	return ""
}
