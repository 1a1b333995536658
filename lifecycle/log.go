package lifecycle

import (
	"regexp"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// revertLine is the line git revert writes into a message; for a merge it goes on with
// ", reversing changes made to ...".
var revertLine = regexp.MustCompile(`(?m)^This reverts commit ([0-9a-f]{40})[.,]`)

// Log returns the audit trail: the publish branch's first-parent history, newest first, one
// entry per commit, restricted to the skill name when it is not empty. Commits made with git
// rather than skillgit are recognized: a merge of a candidate tip is a publish, a git revert
// is a rollback, any other commit is a plain commit of the skill folders it changes.
func (r *Repo) Log(name string) ([]LogEntry, error) {
	out := []LogEntry{}
	tc := r.trailCache()
	tops := &topEntries{}
	err := r.Git.WalkFirstParent(r.Tip, func(h gitstore.Hash, c *object.Commit) error {
		e := r.entryOf(h, c, tc)
		e.Policy = r.commitPolicy(c, tops)
		if name == "" || containsSkill(e, name) {
			out = append(out, e)
		}
		return nil
	})
	tc.save()
	return out, err
}

// entryOf reads one commit of the trail.
func (r *Repo) entryOf(h gitstore.Hash, c *object.Commit, tc *trailCache) LogEntry {
	ci := commitInfo{hash: h, c: c, trailers: gitstore.ParseTrailers(c.Message)}
	subject, _, _ := cutSubject(c.Message)
	e := LogEntry{Commit: h.String(), Action: ci.get(keyAction), Candidate: ci.get(keyCandidate),
		Who: actorOf(c.Author).String(), When: c.Author.When, Risk: ci.get(keyRisk), Subject: subject,
		Skills: publishedNames(ci, ci.all(keySkill)), ApprovedBy: ci.all(keyApproved), Accepted: acceptsOf(ci)}
	if e.Action == "" {
		r.recognize(&e, ci, tc)
	}
	if len(e.Skills) > 0 {
		e.Skill = e.Skills[0]
	}
	return e
}

// recognize names a commit that skillgit did not write.
func (r *Repo) recognize(e *LogEntry, ci commitInfo, tc *trailCache) {
	if len(ci.c.ParentHashes) == 2 {
		if second, ok := r.candidateCommit(ci.c); ok {
			e.Action, e.Via, e.Candidate = actPublish, "git merge", second.get(keyCandidate)
			e.Skills, e.Risk = mergeSkills(second.all(keySkill), r.plainChanges(ci, tc)), second.get(keyRisk)
			return
		}
	}
	e.Action, e.Via = "commit", "git commit"
	if m := revertLine.FindStringSubmatch(ci.c.Message); m != nil {
		e.Action, e.Via = actRollback, "git revert"
	}
	e.Skills = r.plainChanges(ci, tc)
}

// maxTipWalk bounds how far back from a merged tip the trail looks for the candidate's
// lifecycle commits, past commits made on its branch with git.
const maxTipWalk = 32

// candidateCommit finds the newest lifecycle commit of a candidate on the first-parent
// history of a merge's second parent, within maxTipWalk commits: a candidate branch may end
// in commits made with git. One found past the tip counts only when the merge's first
// parent does not already hold it, so a merge of another branch is not taken for a publish.
func (r *Repo) candidateCommit(merge *object.Commit) (commitInfo, bool) {
	h := merge.ParentHashes[1]
	for i := range maxTipWalk {
		ci, err := r.commitInfo(h)
		if err != nil {
			return commitInfo{}, false
		}
		if ci.get(keyCandidate) != "" {
			return ci, i == 0 || r.onlyMerged(ci.hash, merge.ParentHashes[0])
		}
		if len(ci.c.ParentHashes) == 0 {
			break
		}
		h = ci.c.ParentHashes[0]
	}
	return commitInfo{}, false
}

// onlyMerged reports whether commit h came in by the merge: it is not in first's history.
func (r *Repo) onlyMerged(h, first gitstore.Hash) bool {
	in, err := r.Git.IsAncestor(h, first)
	return err == nil && !in
}

// mergeSkills lists the skills a merge of a candidate changed: those the candidate declares,
// then every other skill folder the merge changed, which a merge done with git may carry.
func mergeSkills(declared, changed []string) []string {
	out := slices.Clone(declared)
	for _, n := range changed {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// plainChanges lists the skill folders a commit without trailers changed, from the cache when
// it can.
func (r *Repo) plainChanges(ci commitInfo, tc *trailCache) []string {
	if names, ok := tc.get(ci.hash); ok {
		return names
	}
	if len(ci.c.ParentHashes) == 0 {
		return nil
	}
	if !r.Git.MayHaveChanged(ci.hash, r.Config.SkillsDir) {
		// git's changed-path filter says the skills folder is as the first parent has it.
		names := []string{}
		tc.put(ci.hash, names)
		return names
	}
	parent, err := r.Git.Commit(ci.c.ParentHashes[0])
	if err != nil {
		return nil
	}
	changes, _, err := r.folderChanges(parent.TreeHash, ci.c.TreeHash)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(changes))
	for _, f := range changes {
		names = append(names, f.name())
	}
	tc.put(ci.hash, names)
	return names
}

func containsSkill(e LogEntry, name string) bool { return slices.Contains(e.Skills, name) }
