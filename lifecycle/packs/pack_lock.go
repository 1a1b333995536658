package packs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/gitstore"

	"github.com/skillgit/skillgit/lifecycle"
)

// LockFile records on the publish branch, for each pack, the commit it was last fetched
// at and the skills it brings. `skillgit pack update` rewrites it in the commit that moves a
// pack's pin, so what a pack owns changes only by a commit in the audit trail.
const LockFile = ".skillgit/packs.lock"

// maxLockSize bounds how much of the lock file is read.
const maxLockSize = 1 << 20

// packLock is the contents of LockFile.
type packLock struct {
	Packs []lockedPack `yaml:"packs"`
}

// lockedPack is one pack's pin and the skills it owns.
type lockedPack struct {
	Name string `yaml:"name"`
	// Commit is the pack commit the skills were last proposed from.
	Commit string `yaml:"commit"`
	// Skills are the names of the skills that came from the pack, sorted.
	Skills []string `yaml:"skills"`
}

const lockHeader = "# Written by `skillgit pack update`: the commit each pack was last fetched at and the\n" +
	"# skills it brings. Do not edit by hand; `skillgit pack list` shows it.\n"

// readPackLock reads the lock file of tree; a missing file is an empty lock.
func readPackLock(r *lifecycle.Repo, tree gitstore.Hash) (*packLock, error) {
	data, ok, err := r.FileAt(tree, LockFile, maxLockSize, gitstore.ShortRef(r.Branch()))
	if err != nil || !ok {
		return &packLock{}, err
	}
	var l packLock
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&l); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s:%s: %v; restore it from history or remove it and run `skillgit pack update`", gitstore.ShortRef(r.Branch()), LockFile, err)
	}
	for _, p := range l.Packs {
		if err := checkPackName(p.Name); err != nil || !lifecycle.IsCommitID(p.Commit) {
			return nil, fmt.Errorf("%s:%s: entry %q is malformed; restore it from history", gitstore.ShortRef(r.Branch()), LockFile, p.Name)
		}
	}
	return &l, nil
}

// get returns the entry of pack name, or nil.
func (l *packLock) get(name string) *lockedPack {
	for i := range l.Packs {
		if l.Packs[i].Name == name {
			return &l.Packs[i]
		}
	}
	return nil
}

// set replaces or adds the entry of p.Name, keeping the entries sorted by name.
func (l *packLock) set(p lockedPack) {
	if old := l.get(p.Name); old != nil {
		*old = p
		return
	}
	l.Packs = append(l.Packs, p)
	slices.SortFunc(l.Packs, func(a, b lockedPack) int { return strings.Compare(a.Name, b.Name) })
}

// remove drops the entry of pack name and reports whether there was one.
func (l *packLock) remove(name string) bool {
	n := len(l.Packs)
	l.Packs = slices.DeleteFunc(l.Packs, func(p lockedPack) bool { return p.Name == name })
	return len(l.Packs) != n
}

// owners maps each skill name to the pack that owns it.
func (l *packLock) owners() map[string]string {
	out := map[string]string{}
	for _, p := range l.Packs {
		for _, s := range p.Skills {
			out[s] = p.Name
		}
	}
	return out
}

func (l *packLock) marshal() []byte {
	var b bytes.Buffer
	b.WriteString(lockHeader)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(l); err != nil {
		panic(err) // the type is ours and always encodes
	}
	return b.Bytes()
}
