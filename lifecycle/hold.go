package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// landEvery and landAfter bound a group of actions whose refs are held: the ref moves of up
// to landEvery actions, or of those made within landAfter, land together. A group holds a
// lock for each ref it moves when it lands, and is what an interrupted batch loses.
const (
	landEvery = 256
	landAfter = 2 * time.Second
)

// GroupFull reports whether a group of held actions that began at began and has taken taken
// of them is full, to be landed before the next: at landEvery actions, or once landAfter has
// passed with at least one taken.
func GroupFull(taken int, began time.Time) bool {
	return taken >= landEvery || (taken > 0 && time.Since(began) > landAfter)
}

// ErrLandedInPart reports held ref moves of which some were written and some not.
var ErrLandedInPart = gitstore.ErrLandedInPart

// heldFiles is what the held moves of the checked-out branch change in its files: the
// paths that differ between the tree the branch has on disk and the tree of its last held
// move.
type heldFiles struct {
	from, to gitstore.Hash
	paths    map[string]bool
}

// Hold makes the actions that follow, such as the publishes of a batch, move their refs in
// memory only: each is still its own commit, checked against the refs as the actions before
// it left them, and nothing moves on disk until Land writes the refs together and brings the
// checked-out branch's files up to date once. Another process sees none of it until then.
func (r *Repo) Hold() {
	r.git.Holds().Hold()
	r.held = nil
}

// Land writes the ref moves held since Hold together, with the files of the checked-out
// branch, and stops holding; then it adds the publish branch's new commits to git's
// commit-graph when enough are outside it, which failing only warns. When a ref moved
// meanwhile (ErrRefChanged), is locked, or the files cannot be brought up to date, nothing
// moves and the held actions are dropped, to be made again.
func (r *Repo) Land() (warning string, err error) {
	w := r.held
	r.held = nil
	if err := w.land(r.git); err != nil {
		r.forgetOpen() // it may hold candidates that were dropped
		return "", err
	}
	if tip, err := r.git.Refs().Get(r.branch); err == nil {
		if err := extendGraph(r.git, tip); err != nil {
			return "warning: " + err.Error(), nil
		}
	}
	return "", nil
}

// land writes the held ref moves of g together, bringing the checked-out branch's files
// from the tree of w to the tree of its last move; w is nil when the held moves change none.
func (w *heldFiles) land(g *gitstore.Repo) error {
	if w == nil {
		return g.Holds().Land(nil)
	}
	paths := make([]string, 0, len(w.paths))
	for p := range w.paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	head, _ := g.Refs().HeadBranch()
	return withFiles(g, head, w.from, w.to, paths, g.Holds().Land)
}

// Drop forgets the ref moves held since Hold and stops holding; a batch's index of the
// open candidates, which may hold candidates that were dropped, is read again.
func (r *Repo) Drop() {
	if r.git.Holds().Holding() {
		r.forgetOpen()
	}
	r.git.Holds().Drop()
	r.held = nil
}

// add records a held move of the checked-out branch from oldTree to newTree at paths, and
// returns what the held moves change; w is nil before the first.
func (w *heldFiles) add(oldTree, newTree gitstore.Hash, paths []string) *heldFiles {
	if w == nil {
		w = &heldFiles{from: oldTree, paths: map[string]bool{}}
	}
	w.to = newTree
	for _, p := range paths {
		w.paths[p] = true
	}
	return w
}

// withFiles runs land, a ref update that runs the work it is given while the ref is locked,
// with the work of bringing the files of paths in g's working tree from oldTree to newTree;
// when the update fails after the files changed, they are put back. branch names the
// checked-out branch in errors.
func withFiles(g *gitstore.Repo, branch string, oldTree, newTree gitstore.Hash, paths []string, land func(func() error) error) error {
	updated := false
	err := land(func() error {
		if err := g.UpdateWorktree(oldTree, newTree, paths); err != nil {
			return fmt.Errorf("%s is checked out here: %w", gitstore.ShortRef(branch), err)
		}
		updated = true
		return nil
	})
	if err != nil && updated {
		if uerr := g.UpdateWorktree(newTree, oldTree, paths); uerr != nil {
			return fmt.Errorf("%w; putting the files of %s back failed too: %v", err, strings.Join(paths, ", "), uerr)
		}
	}
	return err
}
