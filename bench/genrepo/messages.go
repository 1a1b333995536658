package genrepo

import (
	"fmt"
	"path"

	"github.com/skillgit/skillgit/gitstore"
)

// candidate carries what the commit messages of one candidate share.
type candidate struct {
	id, skill, risk, audit string
	approver               string
	// approverName and approverEmail are the approver's, who authors the approval.
	approverName, approverEmail string
	// path is the skill's folder; change is create or patch (proposeDelete says delete).
	path, change string
	// policy names the mode that approved the candidate, or "" for a person.
	policy string
}

var feedback = []string{
	"Shorten the description and name the trigger words.",
	"Split the long step into two and add the expected output.",
	"Drop the network call from the example.",
	"Use the project's make targets instead of raw commands.",
}

var rejections = []string{
	"Duplicates an existing skill; extend that one instead.",
	"The script downloads and runs code from the network.",
	"Too specific to one repository to be useful to others.",
}

func (gen *generator) newCandidate(s *skill, auto bool) candidate {
	c := candidate{id: gen.candidateID(s.name), skill: s.name, risk: "low", audit: "pass (ruleset 3, 0 findings)",
		path: path.Join(gen.opts.SkillsDir, s.dir), change: "patch"}
	if s.slot < 0 {
		c.change = "create"
	}
	if !auto && gen.r.IntN(10) == 0 {
		c.risk, c.audit = "medium", "pass (ruleset 3, 1 finding)"
	}
	p := pick(gen.r, people)
	c.approver, c.approverName, c.approverEmail = p.name+" <"+p.email+">", p.name, p.email
	if auto {
		c.policy, c.approver, c.approverName, c.approverEmail = "assisted", "", "", ""
	}
	return c
}

func (c candidate) trailers(action string, extra ...gitstore.Trailer) []gitstore.Trailer {
	ts := []gitstore.Trailer{
		{Key: "Skillgit-Action", Value: action},
		{Key: "Skillgit-Skill", Value: c.skill},
		{Key: "Skillgit-Candidate", Value: c.id},
	}
	return append(ts, extra...)
}

func (c candidate) auditTrailers() []gitstore.Trailer {
	return []gitstore.Trailer{{Key: "Skillgit-Risk", Value: c.risk}, {Key: "Skillgit-Audit", Value: c.audit}}
}

func (c candidate) propose(isNew bool) string {
	body := "Update the skill after using it on real tasks."
	if isNew {
		body = "New skill learned while working on a task."
	}
	return gitstore.FormatMessage("propose: "+c.skill, body, c.trailers("propose", c.proposeTrailers(c.change)...))
}

// proposeTrailers are those skillgit writes on a propose commit after the common ones.
func (c candidate) proposeTrailers(change string) []gitstore.Trailer {
	return append([]gitstore.Trailer{{Key: "Skillgit-Change", Value: change}, {Key: "Skillgit-Path", Value: c.path}}, c.auditTrailers()...)
}

func (c candidate) proposeDelete() string {
	return gitstore.FormatMessage("propose: delete "+c.skill, "The skill is no longer used.",
		c.trailers("propose", c.proposeTrailers(c.change)...))
}

func (c candidate) revise() string {
	return gitstore.FormatMessage("revise: "+c.skill, feedback[len(c.id)%len(feedback)], c.trailers("revise", c.auditTrailers()...))
}

func (c candidate) approve() string {
	subject := fmt.Sprintf("approve: %s (candidate %s)", c.skill, c.id)
	if c.policy != "" {
		return gitstore.FormatMessage(subject, "Low-risk patch approved by policy.",
			c.trailers("approve", gitstore.Trailer{Key: "Skillgit-Policy", Value: c.policy}))
	}
	return gitstore.FormatMessage(subject, "", c.trailers("approve", gitstore.Trailer{Key: "Approved-By", Value: c.approver}))
}

func (c candidate) publish() string {
	ts := c.trailers("publish", append([]gitstore.Trailer{{Key: "Skillgit-Change", Value: c.change}}, c.auditTrailers()...)...)
	if c.policy != "" {
		ts = append(ts, gitstore.Trailer{Key: "Skillgit-Policy", Value: c.policy})
	} else {
		ts = append(ts, gitstore.Trailer{Key: "Approved-By", Value: c.approver})
	}
	return gitstore.FormatMessage(fmt.Sprintf("publish: %s (candidate %s)", c.skill, c.id), "", ts)
}

func (c candidate) reject() string {
	return gitstore.FormatMessage(fmt.Sprintf("reject: %s (candidate %s)", c.skill, c.id), rejections[len(c.id)%len(rejections)],
		c.trailers("reject", gitstore.Trailer{Key: "Rejected-By", Value: c.approver}))
}

func rollbackMsg(skill string, reverted gitstore.Hash) string {
	return gitstore.FormatMessage("rollback: "+skill, fmt.Sprintf("This reverts commit %s.", reverted),
		[]gitstore.Trailer{{Key: "Skillgit-Action", Value: "rollback"}, {Key: "Skillgit-Skill", Value: skill}})
}
