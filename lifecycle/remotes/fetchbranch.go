package remotes

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// fetchPublish records the remote's publish branch and brings the local one up to it.
func (r repo) fetchPublish(rm *remote, rr *remoteRefs, res *FetchResult) error {
	rt := rr.publish
	if rt.IsZero() {
		res.Publish = "absent on remote"
		return nil
	}
	res.RemoteTip = rt.String()
	if err := r.setRef(rm.trackingRef(r.Branch()), rt, "skillgit fetch"); err != nil {
		return err
	}
	if err := r.Reload(); err != nil {
		return err
	}
	lt := r.Tip()
	switch {
	case lt == rt:
		res.Publish = "up to date"
	case r.Book().Descends(rt, lt):
		if err := r.MoveBranch(lt, rt); err != nil {
			res.Publish = "blocked"
			return fmt.Errorf("%s: not brought up to %s/%s: %w", gitstore.ShortRef(r.Branch()), rm.name, gitstore.ShortRef(r.Branch()), err)
		}
		res.Publish = "fast-forwarded"
		res.add(RefChange{Ref: r.Branch(), Action: "updated", Old: lt.String(), New: rt.String()})
	case r.Book().Descends(lt, rt):
		res.Publish = "ahead"
	default:
		return r.unwind(rm, lt, rt, res)
	}
	return nil
}

// unwind handles a local publish branch and a remote one that both moved on. When everything
// the local branch has on its own is skillgit publishes, the branch is moved to the remote's
// tip and each publish's candidate branch restored, so it can be published again on top;
// otherwise nothing moves and the user is told to reconcile the two with git.
func (r repo) unwind(rm *remote, lt, rt gitstore.Hash, res *FetchResult) error {
	pubs, ok, err := r.Book().Trail().LocalPublishes(lt, rt)
	if err != nil {
		return err
	}
	remoteBranch := rm.name + "/" + gitstore.ShortRef(r.Branch())
	if !ok {
		res.Publish = "diverged"
		res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: your branch and %s both have commits the other lacks, and yours are not only skillgit publishes; reconcile them with git (for example `git rebase %s %s`), then run `skillgit fetch` again",
			gitstore.ShortRef(r.Branch()), remoteBranch, remoteBranch, gitstore.ShortRef(r.Branch())))
		return nil
	}
	if err := r.MoveBranch(lt, rt); err != nil {
		res.Publish = "blocked"
		return fmt.Errorf("%s: not moved to %s: %w", gitstore.ShortRef(r.Branch()), remoteBranch, err)
	}
	res.Publish = "returned"
	res.add(RefChange{Ref: r.Branch(), Action: "updated", Old: lt.String(), New: rt.String(), Note: "unpushed publishes returned to their candidates"})
	var ids []string
	for _, p := range pubs {
		if err := r.restoreCandidate(p, res); err != nil {
			return err
		}
		ids = append(ids, p.ID)
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: %s moved on while your publishes of %s were not pushed; they are candidates again: for each, `skillgit rebase ID` if it is behind, `skillgit publish ID`, then `skillgit push`",
		gitstore.ShortRef(r.Branch()), remoteBranch, strings.Join(ids, ", ")))
	return nil
}

// restoreCandidate puts back the branch of a publish taken off the publish branch.
func (r repo) restoreCandidate(p ledger.LocalPublish, res *FetchResult) error {
	ref := lifecycle.CandidatePrefix + p.ID
	cur, err := r.refOrZero(ref)
	if err != nil || cur == p.Candidate {
		return err
	}
	if !cur.IsZero() {
		res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: its branch exists with other commits; the published version is %s", p.ID, p.Candidate))
		return nil
	}
	if err := r.Git().Updates().Update(ref, p.Candidate, gitstore.ZeroHash, "skillgit fetch: publish not pushed"); err != nil {
		return err
	}
	res.add(RefChange{ID: p.ID, Ref: ref, Action: "returned", New: p.Candidate.String(), Note: "its publish was not pushed before " + gitstore.ShortRef(r.Branch()) + " moved on"})
	return nil
}
