package lifecycle

import (
	"regexp"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
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
	folder := r.folderOf(name)
	err := r.Git.WalkFirstParent(r.Tip, func(h gitstore.Hash, c *object.Commit) error {
		if folder != "" && !claimsSkill(c.Message, name) && !r.Git.MayHaveChanged(h, folder) {
			return nil // git's changed-path filter says it left the skill's folder alone
		}
		e := r.entryOf(h, c, tc)
		e.Policy = r.commitPolicy(c, tops)
		if name == "" || containsSkill(e, name) {
			out = append(out, e)
		}
		return nil
	})
	tc.save()
	r.ledger().Save()
	return out, err
}

// folderOf is the folder of the published skill name, for git's changed-path filter; "" for
// no name, or a skill that is not published now.
func (r *Repo) folderOf(name string) string {
	if name == "" {
		return ""
	}
	s, err := r.Published().Find(name)
	if err != nil {
		return ""
	}
	return s.Dir
}

// claimsSkill reports whether a commit message's trailers name the skill.
func claimsSkill(msg, name string) bool {
	if !strings.Contains(msg, name) {
		return false
	}
	c := ledger.ParseClaims(msg)
	return slices.Contains(c.All(keySkill), name) || c.Get(keyPublishedAs) == name
}

// entryOf reads one commit of the trail. What it says is a publish or a rollback is what the
// ledger verified: a commit that claims either and is not one is listed as a commit, with why.
func (r *Repo) entryOf(h gitstore.Hash, c *object.Commit, tc *trailCache) LogEntry {
	ci := ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
	subject, _, _ := cutSubject(c.Message)
	e := LogEntry{Commit: h.String(), Action: ci.Claims.Get(keyAction), Candidate: ci.Claims.Get(keyCandidate),
		Who: actorOf(c.Author).String(), When: c.Author.When, Risk: ci.Claims.Get(keyRisk), Subject: subject,
		Skills: publishedNames(ci, ci.Claims.All(keySkill)), ApprovedBy: ci.Claims.All(keyApproved), Accepted: acceptsOf(ci)}
	if st := r.trailStep(ci); st != nil {
		r.fromStep(&e, st, ci, tc)
	} else if e.Action == "" {
		e.Action, e.Via, e.Skills = "commit", "git commit", r.plainChanges(ci, tc)
	}
	if len(e.Skills) > 0 {
		e.Skill = e.Skills[0]
	}
	return e
}

// trailStep is the ledger's step of a commit that claims to publish or roll back, or might be
// a publish or a rollback made with git; nil for any other commit, or when the ledger cannot
// read it.
func (r *Repo) trailStep(ci ledger.Commit) *ledger.Step {
	a := ci.Claims.Get(keyAction)
	_, reverts := ledger.RevertTarget(ci.C.Message, ledger.Claims(ci.Claims))
	if a != actPublish && a != actRollback && !(a == "" && (len(ci.C.ParentHashes) == 2 || reverts)) {
		return nil
	}
	st, err := r.ledger().StepOf(ci.Hash, ci.C)
	if err != nil {
		return nil
	}
	return st
}

// fromStep fills in e from the ledger's step st of the commit ci.
func (r *Repo) fromStep(e *LogEntry, st *ledger.Step, ci ledger.Commit, tc *trailCache) {
	switch {
	case st.Kind == ledger.KindPublish && st.Via == "git merge":
		e.Action, e.Via, e.Skills = actPublish, "git merge", folderNames(st.Changes)
		if ch, err := r.ledger().ChainOf(st); err == nil && ch != nil {
			e.Candidate, e.Risk = ch.ID, ch.Last().Claims.Get(keyRisk)
			e.Skills = mergeSkills(ch.Propose().Claims.All(keySkill), e.Skills)
		}
	case st.Kind == ledger.KindPublish:
		// Its claims are what the ledger found true.
	case st.Kind == ledger.KindRollback:
		e.Action, e.Skills = actRollback, folderNames(st.Changes)
		if st.Claim == "" {
			e.Via = "git revert"
		}
	default:
		e.Action, e.Via, e.Unverified = "commit", "git commit", st.Unverified
		e.Candidate, e.ApprovedBy, e.Accepted, e.Risk = "", nil, nil, ""
		e.Skills = folderNames(st.Changes)
		if len(st.Changes) == 0 && st.Unverified == "" {
			e.Skills = r.plainChanges(ci, tc)
		}
	}
}

// folderNames are the names of the skills whose folders changed.
func folderNames(fs []ledger.FolderChange) []string {
	names := make([]string, 0, len(fs))
	for _, f := range fs {
		names = append(names, f.Name())
	}
	return names
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
func (r *Repo) plainChanges(ci ledger.Commit, tc *trailCache) []string {
	if names, ok := tc.get(ci.Hash); ok {
		return names
	}
	if len(ci.C.ParentHashes) == 0 {
		return nil
	}
	if !r.Git.MayHaveChanged(ci.Hash, r.Config.SkillsDir) {
		// git's changed-path filter says the skills folder is as the first parent has it.
		names := []string{}
		tc.put(ci.Hash, names)
		return names
	}
	parent, err := r.Git.Commit(ci.C.ParentHashes[0])
	if err != nil {
		return nil
	}
	changes, _, err := r.folderChanges(parent.TreeHash, ci.C.TreeHash)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(changes))
	for _, f := range changes {
		names = append(names, f.name())
	}
	tc.put(ci.Hash, names)
	return names
}

func containsSkill(e LogEntry, name string) bool { return slices.Contains(e.Skills, name) }
