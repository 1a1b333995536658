package ledger

import (
	"fmt"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// view turns a chain into a Candidate; st is shared by the candidates of one listing. The
// signatures of a candidate the publish branch merged are checked as of that merge.
func (b *Book) View(ch *Chain, st *StateCtx, history bool) (*Candidate, error) {
	c, err := b.candidateAt(ch, history, b.mergedAt(ch, st))
	if err != nil {
		return nil, err
	}
	c.State, c.PublishedBy, err = b.State(ch, c, st)
	return c, err
}

// mergedAt is the committer time of the merge on the publish branch that published the
// candidate's tip, the time it was checked for; zero, which means now, when there is none.
func (b *Book) mergedAt(ch *Chain, st *StateCtx) time.Time {
	m, ok := st.merged.get(ch.Tip)
	if !ok {
		return time.Time{}
	}
	c, err := st.commit(b, m)
	if err != nil {
		return time.Time{}
	}
	return c.Committer.When
}

// candidateOf reads a chain's candidate, its approvals and risk, without its state; the
// signatures are checked as of now.
func (b *Book) CandidateOf(ch *Chain, history bool) (*Candidate, error) {
	return b.candidateAt(ch, history, time.Time{})
}

// candidateAt reads a chain's candidate like candidateOf, checking signatures at time at.
func (b *Book) candidateAt(ch *Chain, history bool, at time.Time) (*Candidate, error) {
	p := ch.Propose()
	c := &Candidate{
		ID: ch.ID, Ref: ch.Ref, Skill: p.Claims.Get(KeySkill), Path: ch.Path(), Change: Change(p.Claims.Get(KeyChange)), Pack: p.Claims.Get(KeyPack), Lenient: p.Claims.Get(KeyLenient), ManagedBy: p.Claims.Get(KeyManagedBy),
		Tip: ch.Tip.String(), Base: ClaimedBase(ch).String(), Author: actorOf(p.C.Author),
		Created: p.C.Author.When, Updated: ch.Last().C.Committer.When, Approvals: []Approval{},
	}
	content, err := b.ContentCommits(ch)
	if err != nil {
		return nil, err
	}
	last := content[len(content)-1]
	c.Risk, c.Audit = "unknown", "not audited"
	if lc := ch.Commits[last]; lc.Claims.Get(KeyRisk) != "" {
		c.Risk, c.Audit = lc.Claims.Get(KeyRisk), lc.Claims.Get(KeyAudit)
	}
	c.Duplicates = DuplicatesOf(ch.Commits[last])
	if UnattendedContent(ch) {
		c.AgentOutOfScope = b.OutOfScopeWhy(c.Skill, c.Change, c.ManagedBy == policy.ManagedBy, c.Pack != "")
	}
	if history {
		c.History = historyOf(ch)
	}
	c.Writers = b.WritersOf(ch, content)
	signed := b.Config.Approvals.Signed
	if signed {
		b.withContentCheck(c, ch, content, at)
	}
	for _, ci := range ch.Commits[last+1:] {
		if ci.Claims.Get(KeyAction) != ActApprove {
			continue
		}
		a := b.WithSignature(approvalOf(ci), ci.C, at)
		if signed && a.Policy == "" && DatedBefore(ci, ch.Commits[last]) {
			a.Signed, a.Signer, a.Unverified = false, "", "dated before the content it approves"
		}
		c.Approvals = append(c.Approvals, a)
		if risk := AcceptedRisk(a, ci, c.Writers, signed); risk != "" && c.Unverified == "" {
			c.Risk = risk
		}
	}
	return c, nil
}

// withContentCheck records on c what the signatures of its content commits tell: whether the
// proposal's verified, why the content has no verified writer, and each content event's signer.
func (b *Book) withContentCheck(c *Candidate, ch *Chain, content []int, at time.Time) {
	check := b.CheckContent(ch, content, at)
	c.AuthorVerified, c.Unverified = &check.proposer, check.unverified
	for i, email := range check.signers {
		if i < len(c.History) {
			c.History[i].Signer = email
		}
	}
}

func approvalOf(ci Commit) Approval {
	_, note, _ := CutSubject(ci.C.Message)
	return Approval{Who: actorOf(ci.C.Author), Policy: ci.Claims.Get(KeyPolicy), When: ci.C.Author.When,
		Commit: ci.Hash.String(), Note: note, Accepted: AcceptsOf(ci)}
}

// AcceptedRisk is the risk an approval that accepted findings recorded as remaining; empty
// for any other approval, and for one by a writer of the candidate, by policy, or, when
// signed is true, one whose signature did not verify. Publish audits again, so this only
// tells the candidate's state until then.
func AcceptedRisk(a Approval, ci Commit, writers []string, signed bool) string {
	if len(a.Accepted) == 0 || a.Policy != "" || IsWriter(writers, a.Who.Email) || (signed && !a.Signed) {
		return ""
	}
	return ci.Claims.Get(KeyRisk)
}

func historyOf(ch *Chain) []Event {
	out := make([]Event, 0, len(ch.Commits))
	for _, ci := range ch.Commits {
		subject, body, _ := CutSubject(ci.C.Message)
		action := ci.Claims.Get(KeyAction)
		if action == "" {
			action = "commit"
		}
		out = append(out, Event{Commit: ci.Hash.String(), Action: action, Who: actorOf(ci.C.Author),
			When: ci.C.Author.When, Subject: subject, Body: body, Risk: ci.Claims.Get(KeyRisk)})
	}
	return out
}

// UnattendedContent says whether an unattended actor wrote any of the candidate's content: its
// proposal or a revision.
func UnattendedContent(ch *Chain) bool {
	for _, ci := range ch.Commits {
		if a := ci.Claims.Get(KeyAction); a == ActApprove || a == ActReject || a == ActRebase {
			continue
		}
		if ci.Claims.Get(KeyUnattended) != "" {
			return true
		}
	}
	return false
}

// Authors are the people who wrote the candidate's content: its proposer and every reviser.
func Authors(ch *Chain) []string {
	var out []string
	for _, ci := range ch.Commits {
		if a := ci.Claims.Get(KeyAction); a == ActApprove || a == ActReject || a == ActRebase {
			continue
		}
		if !IsWriter(out, ci.C.Author.Email) {
			out = append(out, ci.C.Author.Email)
		}
	}
	return out
}

// ApprovedEnough says whether a candidate's approvals satisfy the policy for its risk, and if
// not, why. With approvals.signed, no approval counts while a commit of its content has no
// verified writer, an approval counts only when its signature verified, and an approval by
// policy only when the mode is not manual.
func ApprovedEnough(cfg *policy.Config, c *Candidate, writers []string) (bool, string) {
	if cfg.Approvals.Signed && c.Unverified != "" {
		return false, UnverifiedAdvice(c)
	}
	people := map[string]bool{}
	policy := false
	var uncounted []string
	for _, a := range c.Approvals {
		switch {
		case a.Policy != "" && c.AgentOutOfScope != "":
			uncounted = append(uncounted, fmt.Sprintf("policy %s (an agent wrote this change and %s)", a.Policy, c.AgentOutOfScope))
		case a.Policy != "" && !ModeMayApprove(cfg.Mode, c):
			uncounted = append(uncounted, fmt.Sprintf("policy %s (the %s mode does not approve this change)", a.Policy, cfg.Mode))
		case a.Policy != "":
			policy = true
		case cfg.Approvals.Signed && !a.Signed:
			uncounted = append(uncounted, fmt.Sprintf("%s (%s)", a.Who, a.Unverified))
		case cfg.Approvals.AllowSelf || !IsWriter(writers, a.Who.Email):
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
		return false, NeedApprovals(cfg, len(people)) + " (medium risk always needs a person)" + notCounted(uncounted)
	}
	return false, NeedApprovals(cfg, len(people)) + notCounted(uncounted)
}

// notCounted names the approvals approvals.signed left out, and why.
func notCounted(uncounted []string) string {
	if len(uncounted) == 0 {
		return ""
	}
	return "; unsigned and unverified approvals, and those by the candidate's writers, do not count: " + strings.Join(uncounted, ", ")
}

// CutSubject splits a commit message into its subject and its body without trailers.
func CutSubject(msg string) (subject, body string, trailers []gitstore.Trailer) {
	return gitstore.SplitMessage(msg)
}

// ModeMayApprove reports whether an approval by policy stands for a person on c: only where the
// mode itself approves after a proposal, so that an approval commit written by hand with a
// Skillgit-Policy trailer gets no further than the mode would. The mode never approves in manual
// mode, a deletion, a policy change or a pack's candidate, and a new skill only in autonomous
// mode, nor a likely duplicate.
func ModeMayApprove(mode policy.Mode, c *Candidate) bool {
	switch {
	case mode == policy.ModeManual, c.Change == ChangeDelete, c.Change == ChangePolicy, c.Pack != "", len(c.Duplicates) > 0:
		return false
	case c.Change == ChangeCreate:
		return mode == policy.ModeAutonomous
	}
	return true
}
