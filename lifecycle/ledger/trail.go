package ledger

import (
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// Log returns the audit trail: the publish branch's first-parent history, newest first, one
// entry per commit, restricted to the skill name when it is not empty. Commits made with git
// rather than skillgit are recognized: a merge of a candidate tip is a publish, a git revert
// is a rollback, any other commit is a plain commit of the skill folders it changes.
// Each entry kept goes to more, when it is not nil, with its commit, to add what the ledger
// does not read (such as what the commit changed in the policy).
func (t Trail) Log(name string, more func(e *LogEntry, c *object.Commit)) ([]LogEntry, error) {
	out := []LogEntry{}
	tc := t.TrailCache()
	folder := t.folderOf(name)
	err := t.b.Git.WalkFirstParent(t.b.Tip, func(h gitstore.Hash, c *object.Commit) error {
		if folder != "" && !claimsSkill(c.Message, name) && !t.b.Git.MayHaveChanged(h, folder) {
			return nil // git's changed-path filter says it left the skill's folder alone
		}
		e, err := t.EntryOf(h, c, tc)
		if err != nil {
			return err
		}
		if name == "" || ContainsSkill(e, name) {
			if more != nil {
				more(&e, c)
			}
			out = append(out, e)
		}
		return nil
	})
	tc.Save()
	t.b.ledger().Save()
	return out, err
}

// folderOf is the folder of the published skill name, for git's changed-path filter; "" for
// no name, or a skill that is not published now.
func (t Trail) folderOf(name string) string {
	if name == "" {
		return ""
	}
	s, err := t.b.Find(name)
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
	c := ParseClaims(msg)
	return slices.Contains(c.All(KeySkill), name) || c.Get(KeyPublishedAs) == name
}

// EntryOf reads one commit of the trail. What it says is a publish or a rollback is what the
// ledger verified: a commit that claims either and is not one is listed as a commit, with why.
// A commit whose trees (or those of its parent) the repository lacks is an error: what it
// changed cannot be known, and taking it for no change could hide it.
func (t Trail) EntryOf(h gitstore.Hash, c *object.Commit, tc *trailCache) (LogEntry, error) {
	ci := Commit{Hash: h, C: c, Claims: ParseClaims(c.Message)}
	subject, _, _ := CutSubject(c.Message)
	e := LogEntry{Commit: h.String(), Action: ci.Claims.Get(KeyAction), Candidate: ci.Claims.Get(KeyCandidate),
		Who: actorOf(c.Author).String(), When: c.Author.When, Risk: ci.Claims.Get(KeyRisk), Subject: subject,
		Skills: PublishedNames(ci, ci.Claims.All(KeySkill)), ApprovedBy: ci.Claims.All(KeyApproved), Accepted: AcceptsOf(ci)}
	st, err := t.trailStep(ci)
	switch {
	case err != nil:
		return e, err
	case st != nil:
		err = t.fromStep(&e, st, ci, tc)
	case e.Action == "":
		e.Action, e.Via = "commit", "git commit"
		e.Skills, err = t.plainChanges(ci, tc)
	}
	if len(e.Skills) > 0 {
		e.Skill = e.Skills[0]
	}
	return e, err
}

// trailStep is the ledger's step of a commit that claims to publish or roll back, or might be
// a publish or a rollback made with git; nil for any other commit.
func (t Trail) trailStep(ci Commit) (*Step, error) {
	a := ci.Claims.Get(KeyAction)
	_, reverts := RevertTarget(ci.C.Message, Claims(ci.Claims))
	if a != ActPublish && a != ActRollback && !(a == "" && (len(ci.C.ParentHashes) == 2 || reverts)) {
		return nil, nil
	}
	return t.b.ledger().StepOf(ci.Hash, ci.C)
}

// fromStep fills in e from the ledger's step st of the commit ci.
func (t Trail) fromStep(e *LogEntry, st *Step, ci Commit, tc *trailCache) error {
	var err error
	switch {
	case st.Kind == KindPublish && st.Via == "git merge":
		e.Action, e.Via, e.Skills = ActPublish, "git merge", folderNames(st.Changes)
		ch, err := t.b.ledger().ChainOf(st)
		if err != nil {
			return err
		}
		if ch != nil {
			e.Candidate, e.Risk = ch.ID, ch.Last().Claims.Get(KeyRisk)
			e.Skills = mergeSkills(ch.Propose().Claims.All(KeySkill), e.Skills)
		}
	case st.Kind == KindPublish:
		// Its claims are what the ledger found true.
	case st.Kind == KindRollback:
		e.Action, e.Skills = ActRollback, folderNames(st.Changes)
		if st.Claim == "" {
			e.Via = "git revert"
		}
	default:
		e.Action, e.Via, e.Unverified = "commit", "git commit", st.Unverified
		e.Candidate, e.ApprovedBy, e.Accepted, e.Risk = "", nil, nil, ""
		e.Skills = folderNames(st.Changes)
		if len(st.Changes) == 0 && st.Unverified == "" {
			e.Skills, err = t.plainChanges(ci, tc)
		}
	}
	return err
}

// folderNames are the names of the skills whose folders changed.
func folderNames(fs []FolderChange) []string {
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
func (t Trail) plainChanges(ci Commit, tc *trailCache) ([]string, error) {
	if names, ok := tc.Get(ci.Hash); ok {
		return names, nil
	}
	if len(ci.C.ParentHashes) == 0 {
		return nil, nil
	}
	if !t.b.Git.MayHaveChanged(ci.Hash, t.b.Config.SkillsDir) {
		// git's changed-path filter says the skills folder is as the first parent has it.
		names := []string{}
		tc.put(ci.Hash, names)
		return names, nil
	}
	parent, err := t.b.Git.Commit(ci.C.ParentHashes[0])
	if err != nil {
		return nil, unreadable(ci.Hash, err)
	}
	changes, _, err := t.b.FolderChanges(parent.TreeHash, ci.C.TreeHash)
	if err != nil {
		return nil, unreadable(ci.Hash, err)
	}
	names := make([]string, 0, len(changes))
	for _, f := range changes {
		names = append(names, f.Name())
	}
	tc.put(ci.Hash, names)
	return names, nil
}

// ContainsSkill reports whether entry e changed skill name.
func ContainsSkill(e LogEntry, name string) bool { return slices.Contains(e.Skills, name) }

// Trail is the book's audit trail: the publish branch's first-parent history read entry by
// entry, the last change of each skill and the publishes made in this clone.
type Trail struct{ b *Book }

// Trail reads the audit trail of b.
func (b *Book) Trail() Trail { return Trail{b: b} }
