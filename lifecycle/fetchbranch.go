package lifecycle

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// maxUnpushed bounds how many local publishes a fetch walks back over to find where the local
// publish branch left the remote's.
const maxUnpushed = 200

// fetchPublish records the remote's publish branch and brings the local one up to it.
func (r *Repo) fetchPublish(rm *remote, rr *remoteRefs, res *FetchResult) error {
	rt := rr.publish
	if rt.IsZero() {
		res.Publish = "absent on remote"
		return nil
	}
	res.RemoteTip = rt.String()
	if err := r.setRef(rm.trackingRef(r.Branch), rt, "skillgit fetch"); err != nil {
		return err
	}
	if err := r.Reload(); err != nil {
		return err
	}
	lt := r.Tip
	switch {
	case lt == rt:
		res.Publish = "up to date"
	case r.descends(rt, lt):
		if err := r.moveBranch(lt, rt); err != nil {
			res.Publish = "blocked"
			return fmt.Errorf("%s: not brought up to %s/%s: %w", short(r.Branch), rm.name, short(r.Branch), err)
		}
		res.Publish = "fast-forwarded"
		res.add(RefChange{Ref: r.Branch, Action: "updated", Old: lt.String(), New: rt.String()})
	case r.descends(lt, rt):
		res.Publish = "ahead"
	default:
		return r.unwind(rm, lt, rt, res)
	}
	return nil
}

// moveBranch moves the publish branch from old to h by compare-and-swap, with its files when
// it is checked out, and reloads the repository's view of it.
func (r *Repo) moveBranch(old, h gitstore.Hash) error {
	oc, err := r.Git.Commit(old)
	if err != nil {
		return err
	}
	nc, err := r.Git.Commit(h)
	if err != nil {
		return err
	}
	paths, err := r.changedPaths(oc.TreeHash, nc.TreeHash)
	if err != nil {
		return err
	}
	if err := r.MoveChannel(r.Branch, old, h, oc.TreeHash, nc.TreeHash, paths); err != nil {
		return err
	}
	return r.Reload()
}

// changedPaths lists the paths a working tree must update to go from tree a to tree b: the
// skill folders that differ, and the other top-level entries that differ.
func (r *Repo) changedPaths(a, b gitstore.Hash) ([]string, error) {
	changes, outside, err := r.folderChanges(a, b)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range changes {
		paths = append(paths, f.path)
	}
	if len(outside) == 0 {
		return paths, nil
	}
	skills := r.Config.SkillsDir + "/"
	for _, p := range outside {
		if strings.HasPrefix(p, skills) {
			paths = append(paths, p)
		}
	}
	top, err := r.topLevelChanges(a, b)
	return append(paths, top...), err
}

// topLevelChanges lists the entries of two root trees that differ, except the skills folder
// when it is a top-level folder (its skill folders are listed one by one).
func (r *Repo) topLevelChanges(a, b gitstore.Hash) ([]string, error) {
	ea, err := r.Git.ReadTree(a)
	if err != nil {
		return nil, err
	}
	eb, err := r.Git.ReadTree(b)
	if err != nil {
		return nil, err
	}
	seen := map[string]gitstore.TreeEntry{}
	for _, e := range ea {
		seen[e.Name] = e
	}
	var out []string
	for _, e := range eb {
		if o, ok := seen[e.Name]; !ok || o != e {
			out = append(out, e.Name)
		}
		delete(seen, e.Name)
	}
	for name := range seen {
		out = append(out, name)
	}
	kept := out[:0]
	for _, p := range out {
		if p != r.Config.SkillsDir {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// unpushed is a publish on the local branch that the remote does not have.
type unpushed struct {
	commit    gitstore.Hash
	id, skill string
	candidate gitstore.Hash
}

// localPublishes walks the publish branch's first parents from tip back to the remote's
// history (a commit that rt contains) and returns the publishes met, newest first. ok is
// false when a commit on the way is not a skillgit publish or the walk is too long.
func (r *Repo) localPublishes(tip, rt gitstore.Hash) (pubs []unpushed, ok bool, err error) {
	h := tip
	for range maxUnpushed {
		if r.descends(rt, h) {
			return pubs, true, nil
		}
		ci, err := r.commitInfo(h)
		if err != nil {
			return nil, false, err
		}
		id := ci.get(keyCandidate)
		if ci.get(keyAction) != actPublish || len(ci.c.ParentHashes) != 2 || checkID(id) != nil || ci.get(keyChannel) != "" {
			return pubs, false, nil
		}
		pubs = append(pubs, unpushed{commit: h, id: id, skill: ci.get(keySkill), candidate: ci.c.ParentHashes[1]})
		h = ci.c.ParentHashes[0]
	}
	return pubs, false, nil
}

// unwind handles a local publish branch and a remote one that both moved on. When everything
// the local branch has on its own is skillgit publishes, the branch is moved to the remote's
// tip and each publish's candidate branch restored, so it can be published again on top;
// otherwise nothing moves and the user is told to reconcile the two with git.
func (r *Repo) unwind(rm *remote, lt, rt gitstore.Hash, res *FetchResult) error {
	pubs, ok, err := r.localPublishes(lt, rt)
	if err != nil {
		return err
	}
	remoteBranch := rm.name + "/" + short(r.Branch)
	if !ok {
		res.Publish = "diverged"
		res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: your branch and %s both have commits the other lacks, and yours are not only skillgit publishes; reconcile them with git (for example `git rebase %s %s`), then run `skillgit fetch` again",
			short(r.Branch), remoteBranch, remoteBranch, short(r.Branch)))
		return nil
	}
	if err := r.moveBranch(lt, rt); err != nil {
		res.Publish = "blocked"
		return fmt.Errorf("%s: not moved to %s: %w", short(r.Branch), remoteBranch, err)
	}
	res.Publish = "returned"
	res.add(RefChange{Ref: r.Branch, Action: "updated", Old: lt.String(), New: rt.String(), Note: "unpushed publishes returned to their candidates"})
	var ids []string
	for _, p := range pubs {
		if err := r.restoreCandidate(p, res); err != nil {
			return err
		}
		ids = append(ids, p.id)
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: %s moved on while your publishes of %s were not pushed; they are candidates again: for each, `skillgit rebase ID` if it is behind, `skillgit publish ID`, then `skillgit push`",
		short(r.Branch), remoteBranch, strings.Join(ids, ", ")))
	return nil
}

// restoreCandidate puts back the branch of a publish taken off the publish branch.
func (r *Repo) restoreCandidate(p unpushed, res *FetchResult) error {
	ref := candidatePrefix + p.id
	cur, err := r.refOrZero(ref)
	if err != nil || cur == p.candidate {
		return err
	}
	if !cur.IsZero() {
		res.Warnings = append(res.Warnings, fmt.Sprintf("warning: %s: its branch exists with other commits; the published version is %s", p.id, p.candidate))
		return nil
	}
	if err := r.Git.UpdateRef(ref, p.candidate, gitstore.ZeroHash, "skillgit fetch: publish not pushed"); err != nil {
		return err
	}
	res.add(RefChange{ID: p.id, Ref: ref, Action: "returned", New: p.candidate.String(), Note: "its publish was not pushed before " + short(r.Branch) + " moved on"})
	return nil
}
