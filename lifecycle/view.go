package lifecycle

import (
	"fmt"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// view turns a chain into a Candidate; st is shared by the candidates of one listing. The
// signatures of a candidate the publish branch merged are checked as of that merge.
func (r *Repo) view(ch *ledger.Chain, st *stateCtx, history bool) (*Candidate, error) {
	c, err := r.candidateAt(ch, history, r.mergedAt(ch, st))
	if err != nil {
		return nil, err
	}
	c.State, c.PublishedBy, err = r.state(ch, c, st)
	return c, err
}

// mergedAt is the committer time of the merge on the publish branch that published the
// candidate's tip, the time it was checked for; zero, which means now, when there is none.
func (r *Repo) mergedAt(ch *ledger.Chain, st *stateCtx) time.Time {
	m, ok := st.merged[ch.Tip]
	if !ok {
		return time.Time{}
	}
	c, err := st.commit(r, m)
	if err != nil {
		return time.Time{}
	}
	return c.Committer.When
}

// candidateOf reads a chain's candidate, its approvals and risk, without its state; the
// signatures are checked as of now.
func (r *Repo) candidateOf(ch *ledger.Chain, history bool) (*Candidate, error) {
	return r.candidateAt(ch, history, time.Time{})
}

// candidateAt reads a chain's candidate like candidateOf, checking signatures at time at.
func (r *Repo) candidateAt(ch *ledger.Chain, history bool, at time.Time) (*Candidate, error) {
	p := ch.Propose()
	c := &Candidate{
		ID: ch.ID, Ref: ch.Ref, Skill: p.Claims.Get(keySkill), Path: ch.Path(), Change: Change(p.Claims.Get(keyChange)), Pack: p.Claims.Get(keyPack), Lenient: p.Claims.Get(keyLenient), ManagedBy: p.Claims.Get(keyManagedBy),
		Tip: ch.Tip.String(), Base: claimedBase(ch).String(), Author: actorOf(p.C.Author),
		Created: p.C.Author.When, Updated: ch.Last().C.Committer.When, Approvals: []Approval{},
	}
	content, err := r.contentCommits(ch)
	if err != nil {
		return nil, err
	}
	last := content[len(content)-1]
	c.Risk, c.Audit = "unknown", "not audited"
	if lc := ch.Commits[last]; lc.Claims.Get(keyRisk) != "" {
		c.Risk, c.Audit = lc.Claims.Get(keyRisk), lc.Claims.Get(keyAudit)
	}
	c.Duplicates = duplicatesOf(ch.Commits[last])
	if unattendedContent(ch) {
		c.AgentOutOfScope = r.outOfScopeWhy(c.Skill, c.Change, c.ManagedBy == policy.ManagedBy, c.Pack != "")
	}
	if history {
		c.History = historyOf(ch)
	}
	c.Writers = r.writersOf(ch, content)
	signed := r.Config.Approvals.Signed
	if signed {
		r.withContentCheck(c, ch, content, at)
	}
	for _, ci := range ch.Commits[last+1:] {
		if ci.Claims.Get(keyAction) != actApprove {
			continue
		}
		a := r.withSignature(approvalOf(ci), ci.C, at)
		if signed && a.Policy == "" && datedBefore(ci, ch.Commits[last]) {
			a.Signed, a.Signer, a.Unverified = false, "", "dated before the content it approves"
		}
		c.Approvals = append(c.Approvals, a)
		if risk := acceptedRisk(a, ci, c.Writers, signed); risk != "" && c.Unverified == "" {
			c.Risk = risk
		}
	}
	return c, nil
}

// withContentCheck records on c what the signatures of its content commits tell: whether the
// proposal's verified, why the content has no verified writer, and each content event's signer.
func (r *Repo) withContentCheck(c *Candidate, ch *ledger.Chain, content []int, at time.Time) {
	check := r.checkContent(ch, content, at)
	c.AuthorVerified, c.Unverified = &check.proposer, check.unverified
	for i, email := range check.signers {
		if i < len(c.History) {
			c.History[i].Signer = email
		}
	}
}

func approvalOf(ci ledger.Commit) Approval {
	_, note, _ := cutSubject(ci.C.Message)
	return Approval{Who: actorOf(ci.C.Author), Policy: ci.Claims.Get(keyPolicy), When: ci.C.Author.When,
		Commit: ci.Hash.String(), Note: note, Accepted: acceptsOf(ci)}
}

// acceptedRisk is the risk an approval that accepted findings recorded as remaining; empty
// for any other approval, and for one by a writer of the candidate, by policy, or, when
// signed is true, one whose signature did not verify. Publish audits again, so this only
// tells the candidate's state until then.
func acceptedRisk(a Approval, ci ledger.Commit, writers []string, signed bool) string {
	if len(a.Accepted) == 0 || a.Policy != "" || isWriter(writers, a.Who.Email) || (signed && !a.Signed) {
		return ""
	}
	return ci.Claims.Get(keyRisk)
}

func historyOf(ch *ledger.Chain) []Event {
	out := make([]Event, 0, len(ch.Commits))
	for _, ci := range ch.Commits {
		subject, body, _ := cutSubject(ci.C.Message)
		action := ci.Claims.Get(keyAction)
		if action == "" {
			action = "commit"
		}
		out = append(out, Event{Commit: ci.Hash.String(), Action: action, Who: actorOf(ci.C.Author),
			When: ci.C.Author.When, Subject: subject, Body: body, Risk: ci.Claims.Get(keyRisk)})
	}
	return out
}

// unattendedContent says whether an unattended actor wrote any of the candidate's content: its
// proposal or a revision.
func unattendedContent(ch *ledger.Chain) bool {
	for _, ci := range ch.Commits {
		if a := ci.Claims.Get(keyAction); a == actApprove || a == actReject || a == actRebase {
			continue
		}
		if ci.Claims.Get(keyUnattended) != "" {
			return true
		}
	}
	return false
}

// authors are the people who wrote the candidate's content: its proposer and every reviser.
func authors(ch *ledger.Chain) []string {
	var out []string
	for _, ci := range ch.Commits {
		if a := ci.Claims.Get(keyAction); a == actApprove || a == actReject || a == actRebase {
			continue
		}
		if !isWriter(out, ci.C.Author.Email) {
			out = append(out, ci.C.Author.Email)
		}
	}
	return out
}

// approvedEnough says whether a candidate's approvals satisfy the policy for its risk, and if
// not, why. With approvals.signed, no approval counts while a commit of its content has no
// verified writer, an approval counts only when its signature verified, and an approval by
// policy only when the mode is not manual.
func approvedEnough(cfg *policy.Config, c *Candidate, writers []string) (bool, string) {
	if cfg.Approvals.Signed && c.Unverified != "" {
		return false, unverifiedAdvice(c)
	}
	people := map[string]bool{}
	policy := false
	var uncounted []string
	for _, a := range c.Approvals {
		switch {
		case a.Policy != "" && c.AgentOutOfScope != "":
			uncounted = append(uncounted, fmt.Sprintf("policy %s (an agent wrote this change and %s)", a.Policy, c.AgentOutOfScope))
		case a.Policy != "" && !modeMayApprove(cfg.Mode, c):
			uncounted = append(uncounted, fmt.Sprintf("policy %s (the %s mode does not approve this change)", a.Policy, cfg.Mode))
		case a.Policy != "":
			policy = true
		case cfg.Approvals.Signed && !a.Signed:
			uncounted = append(uncounted, fmt.Sprintf("%s (%s)", a.Who, a.Unverified))
		case cfg.Approvals.AllowSelf || !isWriter(writers, a.Who.Email):
			people[strings.ToLower(a.Who.Email)] = true
		case cfg.Approvals.Signed:
			uncounted = append(uncounted, fmt.Sprintf("%s (wrote the candidate)", a.Who))
		}
	}
	switch {
	case c.Risk == "high":
		return false, "the audit rates it high risk"
	case len(people) >= cfg.Approvals.Required:
		return true, ""
	case policy && c.Risk == "low":
		return true, ""
	case c.Risk == "medium":
		return false, needApprovals(cfg, len(people)) + " (medium risk always needs a person)" + notCounted(uncounted)
	}
	return false, needApprovals(cfg, len(people)) + notCounted(uncounted)
}

// notCounted names the approvals approvals.signed left out, and why.
func notCounted(uncounted []string) string {
	if len(uncounted) == 0 {
		return ""
	}
	return "; unsigned and unverified approvals, and those by the candidate's writers, do not count: " + strings.Join(uncounted, ", ")
}

// cutSubject splits a commit message into its subject and its body without trailers.
func cutSubject(msg string) (subject, body string, trailers []gitstore.Trailer) {
	return gitstore.SplitMessage(msg)
}

// modeMayApprove reports whether an approval by policy stands for a person on c: only where the
// mode itself approves after a proposal, so that an approval commit written by hand with a
// Skillgit-Policy trailer gets no further than the mode would. The mode never approves in manual
// mode, a deletion, a policy change or a pack's candidate, and a new skill only in autonomous
// mode, nor a likely duplicate.
func modeMayApprove(mode policy.Mode, c *Candidate) bool {
	switch {
	case mode == policy.ModeManual, c.Change == ChangeDelete, c.Change == ChangePolicy, c.Pack != "", len(c.Duplicates) > 0:
		return false
	case c.Change == ChangeCreate:
		return mode == policy.ModeAutonomous
	}
	return true
}
