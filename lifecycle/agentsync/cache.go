package agentsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// cacheRemote is the name of the remote a cached clone fetches from.
const cacheRemote = "origin"

// fetchSpec copies every branch of the skill repository, the publish branch and the canary
// channel among them, onto the same names in the cached clone.
const fetchSpec = "+refs/heads/*:refs/heads/*"

// scpLike matches the user@host:path form of an ssh address.
var scpLike = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:[^/]`)

// IsGitURL reports whether s names a repository by URL (https, http, ssh, git, file or
// user@host:path) rather than by a local path.
func IsGitURL(s string) bool {
	for _, p := range []string{"https://", "http://", "ssh://", "git://", "file://"} {
		if strings.HasPrefix(strings.ToLower(s), p) {
			return true
		}
	}
	return scpLike().MatchString(s)
}

// CacheDir is the folder under cacheRoot (os.UserCacheDir()/skillgit/repos) that holds the
// cached clone of url: its own for each URL.
func CacheDir(cacheRoot, url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(cacheRoot, hex.EncodeToString(sum[:])[:16])
}

// cacheRoot is the folder the cached clones live in.
func cacheRoot() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for the clones of skill repositories: %w; set XDG_CACHE_HOME or HOME", err)
	}
	return filepath.Join(base, "skillgit", "repos"), nil
}

// cachedClone makes the cached clone of url current and returns its folder: created on first
// use, fetched on every other, or with offline used as it is. What plan reads is fetched (see
// partial.go); the note, when not empty, says that more was fetched than the sync reads. The
// clone's mutex is held, shared, until the caller releases it: no other command fetches into
// the clone meanwhile.
func cachedClone(url string, offline bool, plan *readPlan) (string, *cloneMutex, string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", nil, "", err
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", nil, "", err
	}
	dir := CacheDir(root, url)
	mutex, err := takeCloneMutex(dir, !offline)
	if err != nil {
		return "", nil, "", err
	}
	note, err := refreshClone(root, dir, url, offline, plan)
	if err != nil {
		mutex.release()
		return "", nil, "", err
	}
	if err := mutex.share(); err != nil {
		mutex.release()
		return "", nil, "", err
	}
	return dir, mutex, note, nil
}

// refreshClone creates or fetches the cached clone of url in dir; offline, it only makes
// sure the clone is there.
func refreshClone(root, dir, url string, offline bool, plan *readPlan) (string, error) {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && offline:
		return "", fmt.Errorf("%s: --offline, and there is no cached copy of it yet (%s); sync once without --offline", url, dir)
	case errors.Is(err, fs.ErrNotExist):
		return createClone(root, dir, url, plan)
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir():
		return "", fmt.Errorf("%s: the cached copy of %s is a link or not a folder; remove it and sync again", dir, url)
	}
	repo, err := openClone(dir, url)
	switch {
	case err != nil:
		return "", err
	case offline:
		return "", checkOffline(repo, dir, url, plan)
	}
	return fetchClone(repo, dir, url, plan, false)
}

// openClone opens the cached clone in dir and makes sure it is the clone of url.
func openClone(dir, url string) (*git.Repository, error) {
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: the cached copy of %s does not open (%v); remove the folder and sync again", dir, url, err)
	}
	rm, err := repo.Remote(cacheRemote)
	if err != nil || len(rm.Config().URLs) != 1 || rm.Config().URLs[0] != url {
		return nil, fmt.Errorf("%s: the cached copy is not a clone of %s; remove the folder and sync again", dir, url)
	}
	return repo, nil
}

// tempMade, when a test sets it, is called with the path of the temporary folder of a clone
// just after it is made and registered.
var tempMade func(path string)

// createClone clones url into a new folder beside dir and renames it to dir, so that dir
// is either missing or whole. Another sync that created dir first wins.
func createClone(root, dir, url string, plan *readPlan) (string, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	tmp, untrack, err := interrupt.MkdirTemp(root, ".new-"+filepath.Base(dir)+"-")
	if err != nil {
		return "", err
	}
	defer untrack()
	defer os.RemoveAll(tmp)
	if tempMade != nil {
		tempMade(tmp)
	}
	repo, err := git.PlainInit(tmp, true)
	if err != nil {
		return "", err
	}
	if _, err := repo.CreateRemote(&config.RemoteConfig{Name: cacheRemote, URLs: []string{url}, Fetch: []config.RefSpec{fetchSpec}}); err != nil {
		return "", err
	}
	note, err := fetchClone(repo, tmp, url, plan, true)
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
			return note, nil
		}
		return "", fmt.Errorf("%s: storing the clone of %s: %w", dir, url, err)
	}
	return note, nil
}

// fetchClone fetches every branch of the skill repository into the cached clone repo in dir,
// pruning the branches it deleted, points HEAD where the repository's HEAD points, records
// that branch (see recordRemoteHead) and fetches what plan reads. created says the clone is
// new.
func fetchClone(repo *git.Repository, dir, url string, plan *readPlan, created bool) (string, error) {
	ctx := context.Background()
	rm, err := repo.Remote(cacheRemote)
	if err != nil {
		return "", err
	}
	access := gitauth.For(url)
	refs, err := access.List(ctx, rm, &git.ListOptions{})
	if err != nil {
		return "", fetchError(url, err)
	}
	g := newCacheGit(dir, url, access)
	switch {
	case g != nil:
		err = g.fetchBranchesPartial(ctx, repo, plan, created)
	case !created && cacheLevel(repo) != "":
		err = fmt.Errorf("%s: the cached copy %s was fetched in part with git, which cannot fetch it now (git is not installed, or the URL is an SSH one); install git, or remove the folder and sync again", url, dir)
	default:
		err = access.Fetch(ctx, rm, &git.FetchOptions{RefSpecs: []config.RefSpec{fetchSpec}, Force: true, Prune: true, Tags: git.NoTags})
		if errors.Is(err, git.NoErrAlreadyUpToDate) {
			err = nil
		}
		if err != nil {
			err = fetchError(url, err)
		}
	}
	if err != nil {
		return "", err
	}
	if err := recordHead(repo, refs); err != nil {
		return "", err
	}
	if g == nil {
		return "", nil
	}
	note, err := g.fill(ctx, repo, plan)
	if n := g.refusedNote(); n != "" {
		note = n
	}
	return note, err
}

// recordHead points HEAD of the cached clone where the repository's HEAD, among refs,
// points, and records that branch; none when HEAD names no branch.
func recordHead(repo *git.Repository, refs []*plumbing.Reference) error {
	for _, ref := range refs {
		if ref.Name() == plumbing.HEAD && ref.Type() == plumbing.SymbolicReference && ref.Target().IsBranch() {
			if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref.Target())); err != nil {
				return err
			}
			return recordRemoteHead(repo, ref.Target().Short())
		}
	}
	return recordRemoteHead(repo, "")
}

func fetchError(url string, err error) error {
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return fmt.Errorf("%s: the skill repository is empty; publish a skill there first", url)
	}
	return fmt.Errorf("fetching the skill repository %s: %w; check the URL and your access to it, or pass --offline to use the copy fetched by the last sync", url, err)
}
