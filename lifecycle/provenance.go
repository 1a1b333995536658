package lifecycle

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing/object"
	"gopkg.in/yaml.v3"
)

// packLockFile is the file `skillgit pack update` keeps on the publish branch: each pack's
// pinned commit and the skills it owns.
const packLockFile = ".skillgit/packs.lock"

// maxPackLock bounds how much of the pack lock is read.
const maxPackLock = 1 << 20

// lockOwners reads from the pack lock of the publish branch which pack owns each skill. A
// missing or unreadable lock owns nothing: provenance is then simply not shown.
func (r *Repo) lockOwners() map[string]string {
	data, ok, err := r.FileAt(r.Tree, packLockFile, maxPackLock, short(r.Branch))
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
func (r *Repo) PackProvenance(names []string) (map[string]string, error) {
	out := map[string]string{}
	owners := r.lockOwners()
	pending := map[string]bool{}
	for _, n := range names {
		if owners[n] != "" {
			pending[n] = true
		}
	}
	if len(pending) == 0 {
		return out, nil
	}
	cache := r.provenanceCacheFor(pending)
	if m, ok := cache.get(); ok {
		return m, nil
	}
	err := r.walkLastChanges(r.Tip, pending, func(n string, e LogEntry, c *object.Commit) {
		if pack, skill := r.publishedPack(e, c); n == skill && packName(pack) == owners[n] {
			out[n] = pack
		}
	})
	if err == nil {
		cache.put(out)
	}
	return out, err
}

// publishedPack returns the Skillgit-Pack trailer and the skill of the candidate a publish
// merged; both are empty for any other commit.
func (r *Repo) publishedPack(e LogEntry, c *object.Commit) (pack, skill string) {
	if e.Action != actPublish || e.Candidate == "" || len(c.ParentHashes) != 2 {
		return "", ""
	}
	ch, err := r.loadChain(e.Candidate, "", c.ParentHashes[1])
	if err != nil {
		return "", ""
	}
	p := ch.propose()
	return p.get(keyPack), p.get(keySkill)
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
