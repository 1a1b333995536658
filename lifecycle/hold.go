package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// LandEvery and LandAfter bound a chunk of a batch whose refs are held: the ref moves of up
// to LandEvery actions, or of those made within LandAfter, land together. A chunk holds a
// lock for each ref it moves when it lands, and is what an interrupted batch loses.
const (
	LandEvery = 256
	LandAfter = 2 * time.Second
)

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
	r.git.Refs().Hold()
	r.held = nil
}

// Land writes the ref moves held since Hold together, with the files of the checked-out
// branch, and stops holding; then it adds the publish branch's new commits to git's
// commit-graph when enough are outside it, which failing only warns. When a ref moved
// meanwhile (ErrRefChanged), is locked, or the files cannot be brought up to date, nothing
// moves and the held actions are dropped, to be made again.
func (r *Repo) Land() (warning string, err error) {
	if err := r.landRefs(); err != nil {
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

// landRefs is Land's landing of the refs and files.
func (r *Repo) landRefs() error {
	w := r.held
	r.held = nil
	g := r.git
	if w == nil {
		return g.Refs().Land(nil)
	}
	paths := make([]string, 0, len(w.paths))
	for p := range w.paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	head, _ := g.Refs().HeadBranch()
	return withFiles(g, head, w.from, w.to, paths, g.Refs().Land)
}

// Drop forgets the ref moves held since Hold and stops holding; a batch's index of the
// open candidates, which may hold candidates that were dropped, is read again.
func (r *Repo) Drop() {
	if r.git.Refs().Holding() {
		r.forgetOpen()
	}
	r.git.Refs().Drop()
	r.held = nil
}

// holdFiles records a held move of the checked-out branch from oldTree to newTree at paths.
func (r *Repo) holdFiles(oldTree, newTree gitstore.Hash, paths []string) {
	if r.held == nil {
		r.held = &heldFiles{from: oldTree, paths: map[string]bool{}}
	}
	r.held.to = newTree
	for _, p := range paths {
		r.held.paths[p] = true
	}
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
