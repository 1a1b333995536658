package ledger

import (
	"time"
)

// State is where a candidate stands in its life.
type State string

// The states of a candidate, derived from refs and trailers (DESIGN.md §2.5).
const (
	StateOpen      State = "open"      // proposed or revised, not yet approved enough to publish
	StateApproved  State = "approved"  // has the approvals the policy asks for
	StateRejected  State = "rejected"  // moved to refs/skillgit/archive/<id>
	StatePublished State = "published" // merged into the publish branch
	StateCanary    State = "canary"    // published to the canary channel only
	// StateRolledBack is a candidate whose publish was reverted since, by skillgit rollback
	// or git revert.
	StateRolledBack State = "rolled-back"
)

// Change says what a candidate does to its skill.
type Change string

// The kinds of change a candidate makes.
const (
	ChangeCreate Change = "create"
	ChangePatch  Change = "patch"
	ChangeDelete Change = "delete"
)

// Actor is who performs a lifecycle action, as git records it.
type Actor struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// String renders the actor as git does: "Name <email>".
func (a Actor) String() string { return a.Name + " <" + a.Email + ">" }

// Approval is one approval of a candidate's current content.
type Approval struct {
	// Who approved; for an approval by policy, the person whose action triggered it.
	Who Actor `json:"who"`
	// Policy names the mode that approved it ("assisted", "autonomous"); empty for a person.
	Policy string    `json:"policy,omitempty"`
	When   time.Time `json:"when"`
	Commit string    `json:"commit"`
	Note   string    `json:"note,omitempty"`
	// Accepted lists the findings this approval accepted; the note is the reason.
	Accepted []AcceptedFinding `json:"accepted,omitempty"`
	// Signed says the approval commit's SSH signature verified against a key that the
	// allowed-signers file on the publish branch lists for the approver's email.
	Signed bool `json:"signed"`
	// Signer is the principal the verified signature was made as: the approver's email.
	Signer string `json:"signer,omitempty"`
	// Unverified says why the signature did not verify, or why a verified approval does not
	// count all the same ("dated before the content it approves"); set when approvals.signed
	// is true or the commit carries a signature.
	Unverified string `json:"unverified,omitempty"`
}

// AcceptedFinding is a finding a person accepted when approving a candidate: it counts as
// resolved for the approved tip only, and never when it is critical.
type AcceptedFinding struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule,omitempty"`
	// Path is the finding's file relative to the skill folder.
	Path string `json:"path,omitempty"`
	// By and Reason say who accepted it and why; set where the approval is not at hand, as in
	// the log.
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Event is one commit of a candidate's history, oldest first.
type Event struct {
	Commit  string    `json:"commit"`
	Action  string    `json:"action"`
	Who     Actor     `json:"who"`
	When    time.Time `json:"when"`
	Subject string    `json:"subject"`
	Body    string    `json:"body,omitempty"`
	Risk    string    `json:"risk,omitempty"`
	// Signer, with approvals.signed, is the email a commit that wrote the candidate's content
	// was signed for, when its signature verified.
	Signer string `json:"signer,omitempty"`
}

// Candidate is a proposed change to one skill, as its branch and trailers tell it.
type Candidate struct {
	ID string `json:"id"`
	// Ref is the full ref that holds it: refs/heads/candidate/<id>, or the archive ref.
	Ref    string `json:"ref"`
	State  State  `json:"state"`
	Skill  string `json:"skill"`
	Path   string `json:"path"`
	Change Change `json:"change"`
	// Pack is NAME@COMMIT, the skill pack the change comes from; empty for any other.
	Pack string `json:"pack,omitempty"`
	// Lenient, when not empty, says that the skill breaks reference rules agents tolerate and
	// was admitted by --lenient, e.g. "1 problem(s)"; the propose commit lists them.
	Lenient string `json:"lenient,omitempty"`
	// ManagedBy is the Skillgit-Managed-By trailer of the propose commit: skillgit for a new
	// skill an unattended actor proposed, which its publish commit carries on.
	ManagedBy string `json:"-"`
	// AgentOutOfScope says why the skill is outside the agents' scope when an unattended actor
	// wrote some of the candidate's content, or is empty: an approval by policy then does not
	// stand for a person, whoever wrote it.
	AgentOutOfScope string `json:"-"`
	// Risk and Audit are the trailers of the last commit that changed the content.
	Risk  string `json:"risk"`
	Audit string `json:"audit"`
	Tip   string `json:"tip"`
	// Base is the publish-branch commit the candidate was built on, or last rebased onto.
	Base   string `json:"base"`
	Author Actor  `json:"author"`
	// AuthorVerified, set with approvals.signed, says whether the propose commit's signature
	// verified for Author; without it, the author field is only a claim.
	AuthorVerified *bool `json:"author_verified,omitempty"`
	// Unverified, with approvals.signed, names the commit of the candidate's content that has
	// no verified writer, and why: no approval counts until a signed revision replaces it.
	Unverified string `json:"unverified,omitempty"`
	// Writers are who wrote the content, as writersOf finds them: no approval comes from them.
	Writers   []string   `json:"-"`
	Approvals []Approval `json:"approvals"`
	// PublishedBy is the publish commit, when State is published or canary.
	PublishedBy string    `json:"published_by,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	History     []Event   `json:"history,omitempty"`
	// Duplicates are the skills and candidates its last version likely duplicates, as its
	// Skillgit-Overlaps trailers record.
	Duplicates []Overlap `json:"duplicates,omitempty"`
}

// LogEntry is one step of the audit trail on the publish branch.
type LogEntry struct {
	Commit    string    `json:"commit"`
	Action    string    `json:"action"`
	Skill     string    `json:"skill"`
	Skills    []string  `json:"skills,omitempty"`
	Candidate string    `json:"candidate"`
	Who       string    `json:"who"`
	When      time.Time `json:"when"`
	Risk      string    `json:"risk"`
	Subject   string    `json:"subject"`
	// Via says how the step was made when not by skillgit: "git merge", "git revert",
	// "squash merge", "git commit".
	Via string `json:"via,omitempty"`
	// Unverified says why a commit that claims to be a publish or a rollback is not one: it
	// is listed as a commit.
	Unverified string `json:"unverified,omitempty"`
	// ApprovedBy lists the approvers of a publish.
	ApprovedBy []string `json:"approved_by,omitempty"`
	// Accepted lists the findings the approvers of a publish accepted, with who and why.
	Accepted []AcceptedFinding `json:"accepted,omitempty"`
	// Policy says what the commit changed in the repository's policy: one line per
	// configuration key ("mode: manual -> assisted") and one per other policy file.
	Policy []string `json:"policy,omitempty"`
}

// Overlap is a published skill or an open candidate that a candidate resembles.
type Overlap struct {
	// Skill is the skill's name; Candidate is the candidate's id when the overlap is with an
	// open candidate rather than a published skill.
	Skill     string  `json:"skill"`
	Candidate string  `json:"candidate,omitempty"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason"`
	// Duplicate says that Score reaches dedupe.threshold: the candidate is a likely duplicate.
	Duplicate bool `json:"duplicate,omitempty"`
}

// Label names the overlapped skill or candidate in text.
func (o Overlap) Label() string {
	if o.Candidate != "" {
		return "candidate " + o.Candidate
	}
	return o.Skill
}
