package agentsync

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
)

// needKind says what a need asks for at the end of its path.
type needKind int

const (
	// needObject is the object at the path alone: a file, or a folder's tree.
	needObject needKind = iota
	// needTrees is the folder at the path with every folder below it, no files.
	needTrees
	// needAll is the folder at the path with everything below it.
	needAll
)

// need is something a sync reads of one version of the skill repository: the trees on the
// path from the root tree root to the slash path p (empty: root itself), and, by kind, what
// is there.
type need struct {
	root gitstore.Hash
	path string
	kind needKind
}

// maxTreeDepth bounds how deep a folder's trees are walked; git itself refuses deeper ones.
const maxTreeDepth = 256

// maxFetchRounds bounds the rounds of fetches that fill needs: one a folder level.
const maxFetchRounds = 64

// fetchOrder is the order in which the filters of a round are fetched.
var fetchOrder = []string{filterExact, filterTrees, filterAll}

// ensure fetches, level by level, what the needs ask for and the clone lacks: each round
// finds what is missing as far as the clone can be read, and fetches it in one request per
// filter. A round that gains nothing is an error naming an object the server did not send.
func (g *cacheGit) ensure(ctx context.Context, o *gitstore.Objects, needs []need) error {
	var last []gitstore.Hash
	for range maxFetchRounds {
		missing := missingFor(o, needs)
		var all []gitstore.Hash
		for _, f := range fetchOrder {
			all = append(all, missing[f]...)
		}
		switch {
		case len(all) == 0:
			return nil
		case g.offline:
			return g.offlineMissing("object " + all[0].String())
		case slices.Equal(all, last):
			return fmt.Errorf("fetching the skill repository %s: the server did not send object %s, which the sync reads; run the sync again, or remove the cached copy %s", g.url, all[0], g.dir)
		}
		last = all
		for _, f := range fetchOrder {
			if ids := missing[f]; len(ids) > 0 {
				if err := g.fetchObjects(ctx, f, ids); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// missingFor walks every need as far as o holds it and returns, by the filter that fetches
// them, the objects to fetch next, each once, in a stable order.
func missingFor(o *gitstore.Objects, needs []need) map[string][]gitstore.Hash {
	w := &needWalk{o: o, missing: map[string][]gitstore.Hash{}, seen: map[gitstore.Hash]bool{}}
	for _, n := range needs {
		w.walk(n)
	}
	for _, ids := range w.missing {
		slices.SortFunc(ids, func(a, b gitstore.Hash) int { return strings.Compare(a.String(), b.String()) })
	}
	return w.missing
}

// needWalk gathers what needs ask for and o lacks.
type needWalk struct {
	o       *gitstore.Objects
	missing map[string][]gitstore.Hash
	seen    map[gitstore.Hash]bool
}

// want adds object h, to be fetched with filter, once.
func (w *needWalk) want(filter string, h gitstore.Hash) {
	if !w.seen[h] {
		w.seen[h] = true
		w.missing[filter] = append(w.missing[filter], h)
	}
}

// walk follows n's path from its root as far as the clone holds it. A path that leads
// nowhere asks for nothing: what reads it says what is missing.
func (w *needWalk) walk(n need) {
	h, mode := n.root, filemode.Dir
	if n.path != "" {
		names := strings.Split(n.path, "/")
		for i, name := range names {
			if !w.o.Has(h) {
				w.want(filterExact, h)
				return
			}
			entries, err := w.o.ReadTree(h)
			if err != nil {
				return
			}
			e, ok := gitstore.FindEntry(entries, name)
			if !ok || e.Mode != filemode.Dir && i < len(names)-1 {
				return
			}
			h, mode = e.Hash, e.Mode
		}
	}
	switch {
	case mode == filemode.Submodule:
	case n.kind == needObject || mode != filemode.Dir:
		if !w.o.Has(h) {
			w.want(filterExact, h)
		}
	case n.kind == needTrees:
		if !w.complete(h, false, 0) {
			w.want(filterTrees, h)
		}
	default:
		if !w.complete(h, true, 0) {
			w.want(filterAll, h)
		}
	}
}

// complete reports whether the clone holds tree h and every tree below it, and with files,
// every file below it too.
func (w *needWalk) complete(h gitstore.Hash, files bool, depth int) bool {
	if depth > maxTreeDepth || !w.o.Has(h) {
		return false
	}
	entries, err := w.o.ReadTree(h)
	if err != nil {
		return false
	}
	for _, e := range entries {
		switch {
		case e.Mode == filemode.Dir:
			if !w.complete(e.Hash, files, depth+1) {
				return false
			}
		case e.Mode == filemode.Submodule || !files:
		case !w.o.Has(e.Hash):
			return false
		}
	}
	return true
}
