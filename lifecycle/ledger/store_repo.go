package ledger

import "github.com/skillgit/skillgit/gitstore"

// StoreOf returns repository g as a Store: its history and its objects.
func StoreOf(g *gitstore.Repo) Store {
	return struct {
		*gitstore.History
		*gitstore.Objects
	}{g.History(), g.Objects()}
}

// ReaderOf returns repository g as a Book's Reader.
func ReaderOf(g *gitstore.Repo) Reader {
	return repoReader{History: g.History(), Objects: g.Objects(), refs: g.Refs(), g: g}
}

// repoReader reads a *gitstore.Repo through its parts.
type repoReader struct {
	*gitstore.History
	*gitstore.Objects
	refs *gitstore.Refs
	g    *gitstore.Repo
}

// Ref returns the commit ref name points at.
func (r repoReader) Ref(name string) (gitstore.Hash, error) { return r.refs.Get(name) }

// Refs lists the refs whose names start with prefix.
func (r repoReader) Refs(prefix string) ([]gitstore.Ref, error) { return r.refs.List(prefix) }

// CommonDir is the repository's git folder.
func (r repoReader) CommonDir() string { return r.g.CommonDir() }
