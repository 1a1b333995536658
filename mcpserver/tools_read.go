package mcpserver

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// readOnly marks a tool that changes nothing.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}

func (s *Server) addReadTools() {
	addTool(s, &mcp.Tool{Name: "list_skills", Annotations: readOnly,
		Description: "List the published skills: name, description and path of each (at most 1000; use match_skills to narrow a larger catalog)."},
		nil, listSkills)
	addTool(s, &mcp.Tool{Name: "read_skill", Annotations: readOnly,
		Description: "Read a published skill the way agents load it: its SKILL.md with its name and base directory."},
		limits{"name": nameLimits}, readSkill)
	addTool(s, &mcp.Tool{Name: "match_skills", Annotations: readOnly,
		Description: "Rank the published skills for a task, best first, each with the reason it was chosen. Skills named in hints come first. " +
			"Give a task, or a Markdown plan to take its next open task from; step sets the limit the repository gives that step."},
		limits{"task": strLen(1, maxTaskLen), "limit": intRange(1, 100),
			"hints": all(array(0, maxHints), eachItem(nameLimits)), "plan": strLen(1, maxPlanPathLen),
			"step": enum(policy.StepImplementation, policy.StepReview)}, matchSkills)
	addTool(s, &mcp.Tool{Name: "get_mode", Annotations: readOnly,
		Description: "Tell the repository's lifecycle mode and approval policy, and what an agent may do in it without a person."},
		nil, s.getMode)
}

type noInput struct{}

// skillEntry is one published skill in a listing.
type skillEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path" jsonschema:"the skill's folder in the repository"`
}

type listSkillsOut struct {
	Skills    []skillEntry `json:"skills"`
	Total     int          `json:"total" jsonschema:"how many skills are published"`
	Truncated bool         `json:"truncated,omitempty" jsonschema:"true when skills holds only the first of them"`
}

func listSkills(r *lifecycle.Repo, _ noInput) (listSkillsOut, error) {
	res, err := r.Published().List()
	if err != nil {
		return listSkillsOut{}, err
	}
	out := listSkillsOut{Skills: []skillEntry{}, Total: len(res.Skills)}
	for i, sk := range res.Skills {
		if i == maxListed {
			out.Truncated = true
			break
		}
		out.Skills = append(out.Skills, skillEntry{Name: sk.Name, Description: sk.Description, Path: sk.Dir})
	}
	return out, nil
}

type readSkillIn struct {
	Name string `json:"name" jsonschema:"the published skill's name"`
}

type readSkillOut struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path" jsonschema:"the skill's folder in the repository"`
	BaseDir     string `json:"base_dir" jsonschema:"where the skill's other files are: a read-only copy of the published folder"`
	Content     string `json:"content" jsonschema:"the whole SKILL.md"`
	rendered    string
}

func (o readSkillOut) text() string { return o.rendered }

func readSkill(r *lifecycle.Repo, in readSkillIn) (readSkillOut, error) {
	pub := r.Published()
	sk, err := pub.Find(in.Name)
	if err != nil {
		return readSkillOut{}, err
	}
	data, err := pub.Content(sk)
	if err != nil {
		return readSkillOut{}, err
	}
	pc := pub.Copies()
	defer pc.Prune()
	dir, err := pc.Dir(sk)
	if err != nil {
		return readSkillOut{}, err
	}
	out := readSkillOut{Name: sk.Name, Description: sk.Description, Path: sk.Dir, BaseDir: dir, Content: string(data)}
	var b strings.Builder
	if err := catalog.WriteRead(&b, sk.Name, out.BaseDir, data); err != nil {
		return readSkillOut{}, err
	}
	out.rendered = b.String()
	return out, nil
}

type matchSkillsIn struct {
	Task  string   `json:"task,omitempty" jsonschema:"the task to find skills for, in the user's words; leave it out when plan is given"`
	Limit int      `json:"limit,omitempty" jsonschema:"the most skills to return: 5 when left out, or the limit the repository gives step"`
	Hints []string `json:"hints,omitempty" jsonschema:"skill names to put first, such as ones the user named"`
	Plan  string   `json:"plan,omitempty" jsonschema:"a Markdown plan, relative to the repository's working tree or absolute; its next open item is the task"`
	Step  string   `json:"step,omitempty" jsonschema:"implementation or review: without limit, return as many skills as the repository gives this step"`
}

type matchEntry struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Score       float64 `json:"score" jsonschema:"relevance of the name and description to the task"`
	Hint        bool    `json:"hint,omitempty" jsonschema:"true when the skill was named by a hint"`
	Reason      string  `json:"reason"`
}

type matchSkillsOut struct {
	Matches      []matchEntry `json:"matches"`
	UnknownHints []string     `json:"unknown_hints" jsonschema:"hinted names that no published skill has"`
	Task         *planTaskOut `json:"task,omitempty" jsonschema:"the plan's task that was matched, when a plan was given"`
	PlanDone     bool         `json:"plan_done,omitempty" jsonschema:"true when the plan has no open task left; then matches is empty"`
	Step         string       `json:"step,omitempty"`
}

func matchSkills(r *lifecycle.Repo, in matchSkillsIn) (matchSkillsOut, error) {
	out := matchSkillsOut{Matches: []matchEntry{}, UnknownHints: []string{}}
	if open, err := applyPlan(r, &in, &out); err != nil || !open {
		return out, err
	}
	if in.Limit == 0 {
		in.Limit = 5
	}
	res, err := r.Published().Match(in.Task, catalog.MatchOptions{Limit: in.Limit, Hints: in.Hints})
	if err != nil {
		return matchSkillsOut{}, err
	}
	out.UnknownHints = append(out.UnknownHints, res.UnknownHints...)
	for _, m := range res.Matches {
		out.Matches = append(out.Matches, matchEntry{Name: m.Skill.Name, Description: m.Skill.Description,
			Score: m.Score, Hint: m.Hint, Reason: m.Reason})
	}
	return out, nil
}
