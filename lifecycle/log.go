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
	err := r.Git.WalkFirstParent(r.Tip, func(h gitstore.Hash, c *object.Commit) error {
		e := r.entryOf(h, c, tc)
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
		Skills: ci.all(keySkill), ApprovedBy: ci.all(keyApproved), Accepted: acceptsOf(ci)}
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
		if second, err := r.commitInfo(ci.c.ParentHashes[1]); err == nil && second.get(keyCandidate) != "" {
			e.Action, e.Via, e.Candidate = actPublish, "git merge", second.get(keyCandidate)
			e.Skills, e.Risk = second.all(keySkill), second.get(keyRisk)
			return
		}
	}
	e.Action, e.Via = "commit", "git commit"
	if m := revertLine.FindStringSubmatch(ci.c.Message); m != nil {
		e.Action, e.Via = actRollback, "git revert"
	}
	e.Skills = r.plainChanges(ci, tc)
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
