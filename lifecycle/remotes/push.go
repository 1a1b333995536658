package remotes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// PushOptions says what to push where.
type PushOptions struct {
	// Remote is a configured remote's name; empty means origin, or the only remote.
	Remote string
	// IDs names the candidates to push; empty pushes every candidate, the archive refs and
	// the publish branch.
	IDs []string
	// Progress receives the server's messages as they come, each after "remote: "; nil for none.
	Progress io.Writer
	// AuditProgress hears how many of the skills the push brings are audited here before it is
	// sent; nil for none.
	AuditProgress auditrun.Progress
	// Getenv reads the environment, for the audit's skip switch; nil means os.Getenv.
	Getenv func(string) string
}

// PushResult reports what a push sent.
type PushResult struct {
	Remote  string      `json:"remote"`
	Changes []RefChange `json:"changes"`
	// Warnings are to be printed on stderr, such as that the audit was skipped.
	Warnings []string `json:"warnings,omitempty"`
}

// pushPlan is what one push sends: refspecs, the lease on the publish branch, and the
// remote-tracking refs to record once the remote took it.
type pushPlan struct {
	specs   []config.RefSpec
	require []config.RefSpec
	// lease is the remote publish tip the push requires; leased says whether the push
	// moves the publish branch at all.
	lease   gitstore.Hash
	leased  bool
	changes []RefChange
	track   map[string]gitstore.Hash
	// updates are the refs the push moves forward, for the audit.
	updates []gitstore.RefUpdate
}

// Push sends candidates, archive refs and the publish branch to a remote in one atomic push.
// The publish branch moves only by fast-forward from the remote tip that the local branch
// was built on, and only if the remote still holds that tip when it receives the push: when
// another clone published first, the push fails with ErrRemoteMoved and nothing moves; when
// the remote's publish branch shares no commit with the local one, with ErrUnrelated (the
// remote's tip is fetched first when this repository lacks it, to tell the two apart).
// A candidate that is published or rejected here is removed from the remote. What the push
// brings is audited first, as the pre-push hook audits a `git push`: when the audit refuses,
// nothing is sent and the error is a *PushAuditError. When the remote refuses the push, the
// result comes with the error, for the audit's warnings.
func Push(ctx context.Context, lr *lifecycle.Repo, o PushOptions) (*PushResult, error) {
	r := repo{lr}
	rm, err := r.openRemote(o.Remote)
	if err != nil {
		return nil, err
	}
	refs, err := rm.list(ctx)
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return nil, fmt.Errorf("listing refs of %s (%s): %w", rm.name, rm.url, err)
	}
	remote := map[string]gitstore.Hash{}
	for _, ref := range refs {
		if ref.Type() == plumbing.HashReference {
			remote[ref.Name().String()] = ref.Hash()
		}
	}
	if len(o.IDs) == 0 {
		if err := r.fetchRemoteTip(ctx, rm, remote[r.Branch()], o.Progress); err != nil {
			return nil, err
		}
	}
	p := &pushPlan{track: map[string]gitstore.Hash{}}
	if err := r.planPush(rm, p, remote, o.IDs); err != nil {
		return nil, err
	}
	res := &PushResult{Remote: rm.name, Changes: p.changes}
	if len(p.specs) == 0 {
		return res, nil
	}
	run, err := r.gatePush(rm, p, o.Getenv, o.AuditProgress)
	if err != nil {
		return nil, err
	}
	res.Warnings = run.Warnings
	server := newServerLines(o.Progress)
	err = rm.access.Push(ctx, rm.gr, &git.PushOptions{RemoteName: rm.name, RefSpecs: p.specs,
		RequireRemoteRefs: p.require, Atomic: true, Progress: server})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return res, r.explainPushError(ctx, rm, p, server.lines(), server.shown(), err)
	}
	return res, r.recordPush(p)
}

// planPush decides what to send.
func (r repo) planPush(rm *remote, p *pushPlan, remote map[string]gitstore.Hash, ids []string) error {
	if len(ids) > 0 {
		for _, id := range ids {
			if err := r.planCandidate(rm, p, remote, id, true); err != nil {
				return err
			}
		}
		return nil
	}
	if err := r.planPublish(rm, p, remote); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, prefix := range []string{lifecycle.CandidatePrefix, lifecycle.ArchivePrefix} {
		local, err := r.Git().Refs().List(prefix)
		if err != nil {
			return err
		}
		for _, ref := range local {
			seen[strings.TrimPrefix(ref.Name, prefix)] = true
		}
	}
	for name := range remote {
		if id, ok := strings.CutPrefix(name, lifecycle.CandidatePrefix); ok {
			seen[id] = true
		}
	}
	for _, id := range sortedKeys(seen) {
		if ledger.CheckID(id) != nil {
			continue
		}
		if err := r.planCandidate(rm, p, remote, id, false); err != nil {
			return err
		}
	}
	return nil
}

// planCandidate adds candidate id: its branch, or its archive ref and the removal of the
// remote's branch once it is rejected or published here.
func (r repo) planCandidate(rm *remote, p *pushPlan, remote map[string]gitstore.Hash, id string, named bool) error {
	if err := ledger.CheckID(id); err != nil {
		return err
	}
	branch, archive := lifecycle.CandidatePrefix+id, lifecycle.ArchivePrefix+id
	lh, err := r.refOrZero(branch)
	if err != nil {
		return err
	}
	la, err := r.refOrZero(archive)
	if err != nil {
		return err
	}
	rh := remote[branch]
	switch {
	case !lh.IsZero():
		return r.planRef(p, remote, branch, lh, id, rm.trackingRef(branch))
	case !la.IsZero():
		if err := r.planRef(p, remote, archive, la, id, ""); err != nil {
			return err
		}
		r.planDelete(rm, p, branch, rh, la, id)
		return nil
	case !rh.IsZero() && r.Book().Descends(r.Tip(), rh):
		r.planDelete(rm, p, branch, rh, r.Tip(), id)
		return nil
	case named:
		return fmt.Errorf("%s: candidate %w here; `skillgit candidates --state all` lists them", id, lifecycle.ErrNotFound)
	}
	return nil
}

// planRef sends local ref at h when the remote lacks it or has an older version of it.
func (r repo) planRef(p *pushPlan, remote map[string]gitstore.Hash, ref string, h gitstore.Hash, id, tracking string) error {
	rh := remote[ref]
	if rh == h {
		if tracking != "" {
			p.track[tracking] = h
		}
		return nil
	}
	if !rh.IsZero() && !r.Book().Descends(h, rh) {
		return fmt.Errorf("%s: %w: the remote's %s has commits yours does not; run `skillgit fetch` to see them, then revise or rebase the candidate",
			id, lifecycle.ErrConflict, gitstore.ShortRef(ref))
	}
	p.specs = append(p.specs, config.RefSpec(ref+":"+ref))
	if !rh.IsZero() {
		p.require = append(p.require, config.RefSpec(rh.String()+":"+ref))
	}
	if tracking != "" {
		p.track[tracking] = h
	}
	p.changes = append(p.changes, RefChange{ID: id, Ref: ref, Action: "pushed", Old: hashOrEmpty(rh), New: h.String()})
	p.updates = append(p.updates, gitstore.RefUpdate{Ref: ref, Old: rh, New: h})
	return nil
}

// planDelete removes the remote's candidate branch when what it holds is contained in the
// local archive ref or publish branch, so a revision pushed by someone else is never lost.
func (r repo) planDelete(rm *remote, p *pushPlan, branch string, rh, holder gitstore.Hash, id string) {
	if rh.IsZero() || !r.Book().Descends(holder, rh) {
		return
	}
	p.specs = append(p.specs, config.RefSpec(":"+branch))
	p.require = append(p.require, config.RefSpec(rh.String()+":"+branch))
	p.track[rm.trackingRef(branch)] = gitstore.ZeroHash
	p.changes = append(p.changes, RefChange{ID: id, Ref: branch, Action: "deleted", Old: rh.String(), Note: "published or rejected"})
}

// planPublish sends the publish branch when the local one descends from the remote's tip.
func (r repo) planPublish(rm *remote, p *pushPlan, remote map[string]gitstore.Hash) error {
	rt, lt := remote[r.Branch()], r.Tip()
	tracking := rm.trackingRef(r.Branch())
	if rt == lt || r.Book().Descends(rt, lt) {
		// Nothing to send: the remote has all of it (`skillgit fetch` brings the rest here).
		p.track[tracking] = rt
		return nil
	}
	if !rt.IsZero() && !r.Book().Descends(lt, rt) {
		if r.unrelated(lt, rt) {
			return r.unrelatedError(rm, rt, "nothing was pushed")
		}
		return r.movedError(rm, rt)
	}
	p.specs = append(p.specs, config.RefSpec(r.Branch()+":"+r.Branch()))
	if !rt.IsZero() {
		p.require = append(p.require, config.RefSpec(rt.String()+":"+r.Branch()))
	}
	p.lease, p.leased = rt, true
	p.track[tracking] = lt
	p.changes = append(p.changes, RefChange{Ref: r.Branch(), Action: "pushed", Old: hashOrEmpty(rt), New: lt.String()})
	p.updates = append(p.updates, gitstore.RefUpdate{Ref: r.Branch(), Old: rt, New: lt})
	return nil
}

// movedError says that the remote's publish branch is not the tip the local one was built
// on, names the publishes to redo and what to run.
func (r repo) movedError(rm *remote, rt gitstore.Hash) error {
	base, _ := r.refOrZero(rm.trackingRef(r.Branch()))
	var ids []string
	if !base.IsZero() {
		if pubs, _, err := r.Book().Trail().LocalPublishes(r.Tip(), base); err == nil {
			for _, pub := range pubs {
				ids = append(ids, pub.ID)
			}
		}
	}
	redo := "`skillgit rebase ID` and `skillgit publish ID` for each of your unpushed publishes"
	if len(ids) > 0 {
		redo = fmt.Sprintf("`skillgit rebase ID` if needed and `skillgit publish ID` for %s", strings.Join(ids, ", "))
	}
	remoteTip := "is gone"
	if !rt.IsZero() {
		remoteTip = "is at " + gitstore.ShortHash(rt.String())
	}
	return fmt.Errorf("%s: %w: %s/%s %s, not the tip your publishes were built on (another clone published first); nothing was pushed: run `skillgit fetch %s`, then %s, then `skillgit push %s`",
		gitstore.ShortRef(r.Branch()), ErrRemoteMoved, rm.name, gitstore.ShortRef(r.Branch()), remoteTip, rm.name, redo, rm.name)
}

// explainPushError turns a refused push into ErrRemoteMoved when the remote's publish branch
// moved since it was listed, and into a *ServerRefusedError, carrying what the server said,
// when its hooks declined it.
func (r repo) explainPushError(ctx context.Context, rm *remote, p *pushPlan, lines []string, shown bool, err error) error {
	if p.leased {
		if refs, lerr := rm.list(ctx); lerr == nil {
			now := gitstore.ZeroHash
			for _, ref := range refs {
				if ref.Name().String() == r.Branch() {
					now = ref.Hash()
				}
			}
			if now != p.lease {
				return r.movedError(rm, now)
			}
		}
	}
	if hookDeclined(err) {
		return &ServerRefusedError{Remote: rm.name, URL: rm.url, Lines: lines, Updates: p.updates, Err: err, Shown: shown}
	}
	return fmt.Errorf("push to %s (%s) refused, nothing was pushed: %w; run `skillgit fetch %s` and try again", rm.name, rm.url, err, rm.name)
}

// recordPush moves the remote-tracking refs to what the remote now holds.
func (r repo) recordPush(p *pushPlan) error {
	for _, name := range sortedKeys(p.track) {
		if err := r.setRef(name, p.track[name], "skillgit push"); err != nil {
			return fmt.Errorf("pushed, but recording %s failed: %w", name, err)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
