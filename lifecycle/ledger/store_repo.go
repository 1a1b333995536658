package ledger

import "github.com/skillgit/skillgit/gitstore"

// StoreOf returns repository g as a Store: its history and its objects.
func StoreOf(g *gitstore.Repo) Store {
	return struct {
		*gitstore.History
		*gitstore.Objects
	}{g.History(), g.Objects()}
}
