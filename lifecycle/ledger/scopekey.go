package ledger

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// InFolder reports whether p is folder dir or lies below it.
func InFolder(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// declaredScope lists what a candidate's trailers declare: for a skill candidate, the
// Skillgit-Path of its propose commit; for a policy candidate, each of its Skillgit-Path
// values that holds policy under the configuration of the publish branch. Later commits
// cannot widen it.
func (b *Book) DeclaredScope(ch *Chain) []string {
	if !ch.IsPolicy() {
		if p := ch.Path(); p != "" {
			return []string{p}
		}
		return nil
	}
	allowed := b.Config.PolicyPaths()
	var out []string
	for _, p := range ch.Propose().Claims.All(KeyPath) {
		if slices.Contains(allowed, p) && !slices.Contains(out, p) && !InFolder(p, b.Config.SkillsDir) {
			out = append(out, p)
		}
	}
	return out
}

// entryAt is the entry at path p of a root tree; zero when there is none.
func (b *Book) EntryAt(tree gitstore.Hash, p string) (gitstore.TreeEntry, error) {
	if tree.IsZero() {
		return gitstore.TreeEntry{}, nil
	}
	e, ok, err := b.Git.EntryAt(tree, p)
	if err != nil || !ok {
		return gitstore.TreeEntry{}, err
	}
	return gitstore.TreeEntry{Mode: e.Mode, Hash: e.Hash}, nil
}

// scopeKey identifies what a candidate's declared paths hold in tree, so that two trees with
// the same key hold the same candidate content.
func (b *Book) ScopeKey(ch *Chain, tree gitstore.Hash) (string, error) {
	if !ch.IsPolicy() {
		h, err := b.FolderAt(tree, ch.Path())
		return h.String(), err
	}
	var key strings.Builder
	for _, p := range b.DeclaredScope(ch) {
		e, err := b.EntryAt(tree, p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&key, "%s %o %s\n", p, uint32(e.Mode), e.Hash)
	}
	return key.String(), nil
}
