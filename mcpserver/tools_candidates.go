package mcpserver

import (
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/lifecycle"
)

func (s *Server) addCandidateTools() {
	addTool(s, &mcp.Tool{Name: "list_candidates", Annotations: readOnly,
		Description: "List candidates (proposed changes to skills), newest first. state \"open\" (the default) lists open, approved and canary ones."},
		limits{"state": all(enum("open", "approved", "rejected", "published", "rolled-back", "canary", "all"), withDefault("open"))}, listCandidates)
	addTool(s, &mcp.Tool{Name: "review_candidate", Annotations: readOnly,
		Description: "Review a candidate: its state, approvals, the files publishing it would change, the diff against the published version, the security audit's findings, and any paths its branch changes beyond the skill it declares (out_of_scope), which block it."},
		limits{"id": idLimits}, reviewCandidate)
}

type listCandidatesIn struct {
	State string `json:"state,omitempty" jsonschema:"which candidates to list"`
}

// candidateEntry is one candidate in a listing.
type candidateEntry struct {
	ID        string `json:"id"`
	Skill     string `json:"skill"`
	State     string `json:"state"`
	Change    string `json:"change"`
	Risk      string `json:"risk"`
	Author    string `json:"author"`
	Approvals int    `json:"approvals" jsonschema:"approvals of its current version"`
	Updated   string `json:"updated" jsonschema:"when it last changed, RFC 3339"`
	Path      string `json:"path"`
}

type listCandidatesOut struct {
	Candidates []candidateEntry `json:"candidates"`
	Total      int              `json:"total"`
	Truncated  bool             `json:"truncated,omitempty" jsonschema:"true when candidates holds only the newest of them"`
}

func listCandidates(r *lifecycle.Repo, in listCandidatesIn) (listCandidatesOut, error) {
	state := in.State
	if state == "canary" {
		state = "published"
	}
	cs, err := r.Book().Candidates(state)
	if err != nil {
		return listCandidatesOut{}, err
	}
	out := listCandidatesOut{Candidates: []candidateEntry{}}
	for _, c := range cs {
		if in.State == "canary" && c.State != lifecycle.StateCanary {
			continue
		}
		out.Total++
		if len(out.Candidates) == maxListed {
			out.Truncated = true
			continue
		}
		out.Candidates = append(out.Candidates, candidateEntry{ID: c.ID, Skill: c.Skill, State: string(c.State),
			Change: string(c.Change), Risk: c.Risk, Author: c.Author.String(), Approvals: len(c.Approvals),
			Updated: c.Updated.UTC().Format(time.RFC3339), Path: c.Path})
	}
	return out, nil
}

type idIn struct {
	ID string `json:"id" jsonschema:"the candidate's id, such as pdf-tools-7f3a, or the name of a skill with exactly one open candidate"`
}

// approvalOut is one approval of a candidate's current version.
type approvalOut struct {
	Who    string `json:"who"`
	Policy string `json:"policy,omitempty" jsonschema:"the mode that approved it, when no person did"`
	Note   string `json:"note,omitempty"`
}

// fileOut is one file a candidate changes.
type fileOut struct {
	Path   string `json:"path"`
	Status string `json:"status" jsonschema:"added, modified or deleted"`
}

type reviewOut struct {
	actionOut
	Author        string        `json:"author"`
	Approvals     []approvalOut `json:"approvals"`
	Files         []fileOut     `json:"files"`
	Diff          string        `json:"diff" jsonschema:"unified diff of the skill folder against the publish branch"`
	DiffTruncated bool          `json:"diff_truncated,omitempty"`
	Verdict       string        `json:"verdict" jsonschema:"the audit's verdict: PASS, NEEDS REVIEW or BLOCKED; BLOCKED too when out_of_scope is not empty"`
	OutOfScope    []string      `json:"out_of_scope,omitempty" jsonschema:"paths the candidate's branch changes beyond the skill folder it declares; approve and publish refuse it until they are removed"`
	Conflicts     []string      `json:"conflicts,omitempty" jsonschema:"skill folders the publish branch changed too since the candidate was made; publish refuses them until it is rebased"`
}

func reviewCandidate(r *lifecycle.Repo, in idIn) (reviewOut, error) {
	rv, err := r.Review(in.ID)
	if err != nil {
		return reviewOut{}, err
	}
	c := rv.Candidate
	out := reviewOut{Author: c.Author.String(), Approvals: []approvalOut{}, Files: []fileOut{}, Verdict: rv.Verdict.String()}
	out.actionOut = actionResult(r, &lifecycle.Result{ID: c.ID, Skill: c.Skill, Change: c.Change, Risk: rv.Risk.String(),
		Audit: c.Audit, State: c.State, Commit: c.Tip, Reports: rv.Reports})
	for _, a := range c.Approvals {
		out.Approvals = append(out.Approvals, approvalOut{Who: a.Who.String(), Policy: a.Policy, Note: a.Note})
	}
	for _, f := range rv.Files {
		out.Files = append(out.Files, fileOut{Path: f.Path, Status: f.Status})
	}
	out.OutOfScope, out.Conflicts = rv.Scope.Outside, rv.Conflicts
	if len(out.OutOfScope) > 0 {
		out.Next = fmt.Sprintf("refused: the branch of candidate %s changes %d path(s) outside %s; they must be removed from it, and other skills proposed separately",
			c.ID, len(out.OutOfScope), strings.Join(rv.Scope.Declared, ", "))
	}
	out.Diff = rv.Diff
	if len(out.Diff) > maxDiffBytes {
		out.Diff, out.DiffTruncated = truncateUTF8(out.Diff, maxDiffBytes), true
	}
	return out, nil
}
