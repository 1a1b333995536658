// Package packs pulls skill packs from git remotes into a skillgit repository: it records packs
// in the configuration, fetches each into a temporary repository of its own, checks them, proposes their skills as
// candidates and pins what was fetched in the lock file on the publish branch.
package packs
