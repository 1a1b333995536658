package remotes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// DefaultRemote is the remote push and fetch use when none is named and it exists.
const DefaultRemote = "origin"

// ErrRemoteMoved reports a push of the publish branch that the remote refused because its
// branch is no longer the tip the local publishes were built on.
var ErrRemoteMoved = fmt.Errorf("%w: the remote's publish branch moved on", lifecycle.ErrConflict)

// ErrNoRemote reports a remote that is not configured.
var ErrNoRemote = errors.New("no such remote")

// repo is a skillgit repository, with the helpers of push, fetch and watch as methods.
type repo struct{ *lifecycle.Repo }

// remote is a configured git remote, reached through go-git with a private view of this
// repository's refs: go-git reads the local refs from a snapshot and writes what it learns
// there, and skillgit moves the real refs itself, by compare-and-swap.
type remote struct {
	name string
	// url is the remote's URL as messages show it, without a secret it may hold.
	url  string
	view *refView
	gr   *git.Remote
	// access carries the credentials for the URL through every call to the remote.
	access *gitauth.Access
}

// List lists the names of the configured remotes, sorted.
func List(r *lifecycle.Repo) ([]string, error) {
	cfg, err := r.Git().Git().Config()
	if err != nil {
		return nil, fmt.Errorf("reading git config: %w", err)
	}
	var names []string
	for n := range cfg.Remotes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// Is reports whether name is a configured remote.
func Is(r *lifecycle.Repo, name string) bool {
	names, err := List(r)
	return err == nil && slices.Contains(names, name)
}

// resolveRemote picks the remote: name, else origin, else the only remote there is.
func (r repo) resolveRemote(name string) (string, error) {
	names, err := List(r.Repo)
	if err != nil {
		return "", err
	}
	has := func(n string) bool { return slices.Contains(names, n) }
	switch {
	case name != "" && has(name):
		return name, nil
	case name != "":
		return "", fmt.Errorf("%s: %w; `git remote add %s URL` adds it (remotes here: %s)", name, ErrNoRemote, name, listOrNone(names))
	case has(DefaultRemote):
		return DefaultRemote, nil
	case len(names) == 1:
		return names[0], nil
	case len(names) == 0:
		return "", fmt.Errorf("%w: this repository has no remote; `git remote add origin URL` adds one", ErrNoRemote)
	}
	return "", fmt.Errorf("%w named %s; name one of %s", ErrNoRemote, DefaultRemote, strings.Join(names, ", "))
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// openRemote resolves name and prepares a go-git remote on a snapshot of the local refs.
func (r repo) openRemote(name string) (*remote, error) {
	name, err := r.resolveRemote(name)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Git().Git().Config()
	if err != nil {
		return nil, err
	}
	rc := cfg.Remotes[name]
	if len(rc.URLs) == 0 {
		return nil, fmt.Errorf("%s: the remote has no URL; `git remote set-url %s URL` sets one", name, name)
	}
	view, err := newRefView(r.Git())
	if err != nil {
		return nil, err
	}
	urls := make([]string, len(rc.URLs))
	for i, u := range rc.URLs {
		urls[i] = r.resolveURL(u)
	}
	// No fetch refspecs: go-git then writes no remote-tracking refs on its own after a push.
	gr := git.NewRemote(view, &config.RemoteConfig{Name: name, URLs: urls})
	return &remote{name: name, url: gitauth.Redact(rc.URLs[0]), view: view, gr: gr, access: gitauth.For(urls[0])}, nil
}

// list lists the remote's refs.
func (rm *remote) list(ctx context.Context) ([]*plumbing.Reference, error) {
	return rm.access.List(ctx, rm.gr, &git.ListOptions{})
}

// resolveURL makes a remote URL that is a relative path start where git starts it: at the top
// of the working tree, or at the git directory of a bare repository, not in the folder
// skillgit was started in (which -C does not change).
func (r repo) resolveURL(u string) string {
	if u == "" || filepath.IsAbs(u) || strings.Contains(u, "://") {
		return u
	}
	if i := strings.IndexByte(u, ':'); i > 0 && !strings.ContainsRune(u[:i], '/') {
		return u // host:path, as scp writes it
	}
	base := r.Git().WorktreeDir()
	if base == "" {
		base = r.Git().GitDir()
	}
	return filepath.Join(base, u)
}

// trackingRef is where this repository remembers the remote's ref branch (refs/heads/X).
func (rm *remote) trackingRef(branch string) string {
	return "refs/remotes/" + rm.name + "/" + strings.TrimPrefix(branch, "refs/heads/")
}

// refView is a repository's object storage with refs held in memory.
type refView struct {
	storage.Storer
	refs memory.ReferenceStorage
}

func newRefView(g *gitstore.Repo) (*refView, error) {
	refs, err := g.Refs().List("refs/")
	if err != nil {
		return nil, err
	}
	v := &refView{Storer: g.Git().Storer, refs: memory.ReferenceStorage{}}
	for _, ref := range refs {
		v.refs[plumbing.ReferenceName(ref.Name)] = plumbing.NewHashReference(plumbing.ReferenceName(ref.Name), ref.Hash)
	}
	return v, nil
}

// Config is the repository's git config with the delta search of the packs that a push sends
// turned off, unless pack.window is set: go-git's search takes seconds of processor time for a
// few megabytes of skills and saves a few percent of the bytes, since its packs are never thin
// (a new version of a file is never sent as a delta of what the remote already holds).
func (v *refView) Config() (*config.Config, error) {
	c, err := v.Storer.Config()
	if err != nil {
		return nil, err
	}
	if !c.Raw.Section("pack").HasOption("window") {
		c.Pack.Window = 0
	}
	return c, nil
}

// SetReference stores ref in the view.
func (v *refView) SetReference(ref *plumbing.Reference) error { return v.refs.SetReference(ref) }

// CheckAndSetReference stores ref in the view when it holds old.
func (v *refView) CheckAndSetReference(ref, old *plumbing.Reference) error {
	return v.refs.CheckAndSetReference(ref, old)
}

// Reference reads a ref of the view.
func (v *refView) Reference(n plumbing.ReferenceName) (*plumbing.Reference, error) {
	return v.refs.Reference(n)
}

// IterReferences lists the view's refs.
func (v *refView) IterReferences() (storer.ReferenceIter, error) { return v.refs.IterReferences() }

// RemoveReference removes a ref from the view.
func (v *refView) RemoveReference(n plumbing.ReferenceName) error { return v.refs.RemoveReference(n) }

// CountLooseRefs counts the view's refs.
func (v *refView) CountLooseRefs() (int, error) { return v.refs.CountLooseRefs() }

// PackRefs does nothing: the view is in memory.
func (v *refView) PackRefs() error { return nil }

// PackfileWriter lets go-git store a fetched pack as a pack file rather than object by object.
func (v *refView) PackfileWriter() (io.WriteCloser, error) {
	if w, ok := v.Storer.(storer.PackfileWriter); ok {
		return w.PackfileWriter()
	}
	return nil, fmt.Errorf("the repository's storage cannot take a pack file")
}

// hash returns the id the view holds for name, or ZeroHash.
func (v *refView) hash(name string) gitstore.Hash {
	if ref, ok := v.refs[plumbing.ReferenceName(name)]; ok && ref.Type() == plumbing.HashReference {
		return ref.Hash()
	}
	return gitstore.ZeroHash
}

// setRef moves the real ref name to h (ZeroHash deletes it) by compare-and-swap from what it
// holds now; it is for refs that only record what was seen, such as remote-tracking refs.
func (r repo) setRef(name string, h gitstore.Hash, msg string) error {
	cur, err := r.Git().Refs().Get(name)
	if err != nil && !errors.Is(err, gitstore.ErrRefNotFound) {
		return err
	}
	if cur == h {
		return nil
	}
	return r.Git().Updates().Update(name, h, cur, msg)
}

// CandidatesToFetch counts the candidates that the remotes' tracking refs
// (refs/remotes/REMOTE/candidate/ID) know of and this repository does not: no local branch,
// and not already published or rejected here. A fresh `git clone` has every open candidate
// of the team there and none as a branch, until `skillgit fetch` brings them in.
func CandidatesToFetch(lr *lifecycle.Repo) (int, error) {
	r := repo{lr}
	names, err := List(lr)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, name := range names {
		prefix := "refs/remotes/" + name + "/candidate/"
		refs, err := r.Git().Refs().List(prefix)
		if err != nil {
			return 0, err
		}
		for _, ref := range refs {
			id := strings.TrimPrefix(ref.Name, prefix)
			if ledger.CheckID(id) != nil {
				continue
			}
			lh, err := r.refOrZero(lifecycle.CandidatePrefix + id)
			if err != nil {
				return 0, err
			}
			if lh.IsZero() && !r.settled(id, ref.Hash) {
				n++
			}
		}
	}
	return n, nil
}
