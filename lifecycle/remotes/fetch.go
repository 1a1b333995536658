package remotes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// scratch is the namespace, held in memory only, where a fetch puts the remote's refs before
// skillgit decides what to do with them.
const scratch = "refs/skillgit-fetch/"

// FetchOptions says what to fetch from where.
type FetchOptions struct {
	// Remote is a configured remote's name; empty means origin, or the only remote.
	Remote string
	// Progress receives the server's messages as they come, each after "remote: "; nil for none.
	Progress io.Writer
}

// RefChange is what a fetch or push did to one ref.
type RefChange struct {
	// ID is the candidate's id; empty for the publish branch.
	ID  string `json:"id,omitempty"`
	Ref string `json:"ref"`
	// Action is one of created, updated, removed, returned, kept, diverged, pushed, deleted.
	Action string `json:"action"`
	Old    string `json:"old,omitempty"`
	New    string `json:"new,omitempty"`
	Note   string `json:"note,omitempty"`
}

// FetchResult reports what a fetch changed.
type FetchResult struct {
	Remote string `json:"remote"`
	// Branch is the publish branch, e.g. main; RemoteTip is its tip on the remote.
	Branch    string `json:"branch"`
	RemoteTip string `json:"remote_tip,omitempty"`
	// Publish says what happened to the local publish branch: up to date, fast-forwarded,
	// ahead, returned, diverged, absent on remote, blocked, or unrelated (with ErrUnrelated).
	Publish string      `json:"publish"`
	Changes []RefChange `json:"changes"`
	// Warnings need the user's attention: a candidate or a branch that diverged.
	Warnings []string `json:"-"`
}

func (res *FetchResult) add(c RefChange) { res.Changes = append(res.Changes, c) }

// remoteRefs is what the remote holds: candidates and archive refs by id, and the publish
// branch's tip (ZeroHash when absent).
type remoteRefs struct {
	candidates map[string]gitstore.Hash
	archive    map[string]gitstore.Hash
	publish    gitstore.Hash
}

// Fetch brings the remote's candidates, archive refs and publish branch into this repository.
// A candidate or archive ref is created, or fast-forwarded; one that diverged is reported and
// kept. The remote's publish branch is recorded at refs/remotes/<remote>/<branch>, and the
// local one fast-forwarded to it, with the checked-out files when it is checked out. When the
// local branch holds publishes the remote does not have and the remote moved on, those
// publishes are taken back off the local branch and their candidates restored, so they can be
// published again on the remote's tip. When the remote's publish branch shares no commit with
// the local one, only its remote-tracking ref is recorded and the error is ErrUnrelated.
func Fetch(ctx context.Context, lr *lifecycle.Repo, o FetchOptions) (*FetchResult, error) {
	r := repo{lr}
	rm, err := r.openRemote(o.Remote)
	if err != nil {
		return nil, err
	}
	rr, err := r.download(ctx, rm, liveLines(o.Progress))
	if err != nil {
		return nil, err
	}
	res := &FetchResult{Remote: rm.name, Branch: gitstore.ShortRef(r.Branch())}
	if err := r.checkRelated(rm, rr, res); err != nil {
		return res, err
	}
	if err := r.fetchArchive(rr, res); err != nil {
		return res, err
	}
	perr := r.fetchPublish(rm, rr, res)
	if perr != nil && !errors.Is(perr, gitstore.ErrDirty) {
		return res, perr
	}
	if err := r.fetchCandidates(rm, rr, res); err != nil {
		return res, err
	}
	return res, perr
}

// download fetches the remote's refs and the objects they need into the repository and
// returns what the remote holds.
func (r repo) download(ctx context.Context, rm *remote, progress io.Writer) (*remoteRefs, error) {
	specs := []config.RefSpec{config.RefSpec("+" + r.Branch() + ":" + scratch + "publish"),
		config.RefSpec("+" + lifecycle.CandidatePrefix + "*:" + scratch + "candidate/*"),
		config.RefSpec("+" + lifecycle.ArchivePrefix + "*:" + scratch + "archive/*")}
	err := rm.fetch(ctx, specs, progress)
	var nomatch git.NoMatchingRefSpecError
	if errors.As(err, &nomatch) {
		// The remote has no publish branch yet: fetch the rest.
		err = rm.fetch(ctx, specs[1:], progress)
	}
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return nil, fmt.Errorf("fetching from %s (%s): %w", rm.name, rm.url, err)
	}
	rr := &remoteRefs{candidates: map[string]gitstore.Hash{}, archive: map[string]gitstore.Hash{}}
	rr.publish = rm.view.hash(scratch + "publish")
	for name, ref := range rm.view.refs {
		n := string(name)
		if id, ok := strings.CutPrefix(n, scratch+"candidate/"); ok && ledger.CheckID(id) == nil {
			rr.candidates[id] = ref.Hash()
		} else if id, ok := strings.CutPrefix(n, scratch+"archive/"); ok && ledger.CheckID(id) == nil {
			rr.archive[id] = ref.Hash()
		}
	}
	return rr, nil
}

func (rm *remote) fetch(ctx context.Context, specs []config.RefSpec, progress io.Writer) error {
	if len(specs) == 0 {
		return nil
	}
	return rm.access.Fetch(ctx, rm.gr, &git.FetchOptions{RemoteName: rm.name, RefSpecs: specs, Tags: git.NoTags, Progress: progress})
}

// fetchArchive creates or fast-forwards the archive refs the remote has.
func (r repo) fetchArchive(rr *remoteRefs, res *FetchResult) error {
	for _, id := range sortedKeys(rr.archive) {
		if err := r.adopt(lifecycle.ArchivePrefix+id, id, rr.archive[id], res); err != nil {
			return err
		}
	}
	return nil
}

// adopt creates ref at rh, or fast-forwards it there; a ref that is ahead or diverged is kept
// and reported.
func (r repo) adopt(ref, id string, rh gitstore.Hash, res *FetchResult) error {
	lh, err := r.refOrZero(ref)
	if err != nil || lh == rh {
		return err
	}
	c := RefChange{ID: id, Ref: ref, Old: hashOrEmpty(lh), New: rh.String()}
	switch {
	case lh.IsZero():
		c.Action = "created"
	case r.Book().Descends(rh, lh):
		c.Action = "updated"
	case r.Book().Descends(lh, rh):
		c.Action, c.Old, c.New, c.Note = "kept", "", "", "yours is ahead of the remote's; `skillgit push` sends it"
		res.add(c)
		return nil
	default:
		c.Action, c.Old, c.New = "diverged", "", ""
		c.Note = fmt.Sprintf("yours and the remote's (%s) have different changes; kept yours", gitstore.ShortHash(rh.String()))
		res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: %s", gitstore.ShortRef(ref), c.Note))
		res.add(c)
		return nil
	}
	if err := r.Git().Updates().Update(ref, rh, lh, "skillgit fetch"); err != nil {
		return fmt.Errorf("%s: %w", gitstore.ShortRef(ref), err)
	}
	res.add(c)
	return nil
}

func (r repo) refOrZero(ref string) (gitstore.Hash, error) {
	h, err := r.Git().Refs().Get(ref)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return gitstore.ZeroHash, nil
	}
	return h, err
}

func hashOrEmpty(h gitstore.Hash) string {
	if h.IsZero() {
		return ""
	}
	return h.String()
}

// fetchCandidates brings the remote's candidates in, records them as remote-tracking refs, and
// removes local candidates that the remote dropped because they were published or rejected.
func (r repo) fetchCandidates(rm *remote, rr *remoteRefs, res *FetchResult) error {
	for _, id := range sortedKeys(rr.candidates) {
		rh := rr.candidates[id]
		lh, err := r.refOrZero(lifecycle.CandidatePrefix + id)
		if err != nil {
			return err
		}
		if lh.IsZero() && r.settled(id, rh) {
			continue
		}
		if err := r.adopt(lifecycle.CandidatePrefix+id, id, rh, res); err != nil {
			return err
		}
	}
	if err := r.trackCandidates(rm, rr.candidates); err != nil {
		return err
	}
	return r.retireCandidates(rr, res)
}

// settled reports whether candidate id at h is already published on the publish branch or
// rejected here, so that fetching it would only bring back a finished candidate.
func (r repo) settled(id string, h gitstore.Hash) bool {
	if r.Book().Descends(r.Tip(), h) {
		return true
	}
	a, err := r.refOrZero(lifecycle.ArchivePrefix + id)
	return err == nil && r.Book().Descends(a, h)
}

// trackCandidates records the remote's candidates under refs/remotes/<remote>/candidate/.
func (r repo) trackCandidates(rm *remote, cands map[string]gitstore.Hash) error {
	prefix := rm.trackingRef(lifecycle.CandidatePrefix)
	old, err := r.Git().Refs().List(prefix)
	if err != nil {
		return err
	}
	for _, ref := range old {
		if _, ok := cands[strings.TrimPrefix(ref.Name, prefix)]; !ok {
			if err := r.Git().Updates().Update(ref.Name, gitstore.ZeroHash, ref.Hash, "skillgit fetch: pruned"); err != nil {
				return err
			}
		}
	}
	for id, h := range cands {
		if err := r.setRef(prefix+id, h, "skillgit fetch"); err != nil {
			return err
		}
	}
	return nil
}

// retireCandidates removes the local candidates that the remote no longer has and that are
// published on the publish branch or archived, as publish and reject do locally.
func (r repo) retireCandidates(rr *remoteRefs, res *FetchResult) error {
	local, err := r.Git().Refs().List(lifecycle.CandidatePrefix)
	if err != nil {
		return err
	}
	for _, ref := range local {
		id := strings.TrimPrefix(ref.Name, lifecycle.CandidatePrefix)
		if _, ok := rr.candidates[id]; ok || ledger.CheckID(id) != nil || !r.settled(id, ref.Hash) {
			continue
		}
		if err := r.Git().Updates().Update(ref.Name, gitstore.ZeroHash, ref.Hash, "skillgit fetch: finished"); err != nil {
			return err
		}
		res.add(RefChange{ID: id, Ref: ref.Name, Action: "removed", Old: ref.Hash.String(), Note: "published or rejected"})
	}
	return nil
}
