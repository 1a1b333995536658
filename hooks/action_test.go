package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/internal/testenv"
)

// workflow is the part of a GitHub Actions workflow the test reads.
type workflow struct {
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]*wfJob `yaml:"jobs"`
}

type wfJob struct {
	Name   string   `yaml:"name"`
	RunsOn string   `yaml:"runs-on"`
	Steps  []wfStep `yaml:"steps"`
}

type wfStep struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]any    `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

// readWorkflow parses docs/github-action.yml.
func readWorkflow(t *testing.T) *wfJob {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "github-action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("docs/github-action.yml: %v", err)
	}
	if _, ok := wf.On["pull_request"]; !ok || len(wf.On) != 1 {
		t.Errorf("the workflow runs on %v, want pull_request only", wf.On)
	}
	wantPerms := map[string]string{"contents": "read", "pull-requests": "write", "security-events": "write", "actions": "read"}
	for k, v := range wantPerms {
		if wf.Permissions[k] != v {
			t.Errorf("permissions.%s = %q, want %q", k, wf.Permissions[k], v)
		}
	}
	for k := range wf.Permissions {
		if _, ok := wantPerms[k]; !ok {
			t.Errorf("permissions.%s is granted but no step needs it", k)
		}
	}
	job := wf.Jobs["audit"]
	if len(wf.Jobs) != 1 || job == nil {
		t.Fatalf("the workflow has jobs %v, want one, audit", keys(wf.Jobs))
	}
	if job.Name != "skillgit audit" || job.RunsOn == "" {
		t.Errorf("job audit: name %q (the README names \"skillgit audit\" as the required check), runs-on %q", job.Name, job.RunsOn)
	}
	return job
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// stepIndex returns the index of the first step match accepts, or fails the test.
func stepIndex(t *testing.T, job *wfJob, what string, match func(wfStep) bool) int {
	t.Helper()
	i := slices.IndexFunc(job.Steps, match)
	if i < 0 {
		t.Fatalf("the workflow has no step that %s", what)
	}
	return i
}

// The audit commands, exactly as the workflow must run them.
const (
	sarifCommand    = `skillgit audit --rev "origin/$BASE_REF..HEAD" --format sarif > audit.sarif`
	markdownCommand = `skillgit audit --rev "origin/$BASE_REF..HEAD" --format markdown > audit.md`
)

// TestGitHubActionWorkflow checks the structure of docs/github-action.yml, then runs its audit
// and gate steps, as GitHub's runner would, on a pull request with a benign and one with a
// malicious skill.
func TestGitHubActionWorkflow(t *testing.T) {
	job := readWorkflow(t)
	mod, err := os.ReadFile(goEnv(t).GOMOD)
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(mod)
	if module == nil {
		t.Fatal("go.mod has no module line")
	}

	checkout := stepIndex(t, job, "checks out the repository", func(s wfStep) bool { return strings.HasPrefix(s.Uses, "actions/checkout@") })
	if d := job.Steps[checkout].With["fetch-depth"]; d != 0 {
		t.Errorf("checkout fetch-depth = %v, want 0 (full history)", d)
	}
	setupGo := stepIndex(t, job, "sets up Go", func(s wfStep) bool { return strings.HasPrefix(s.Uses, "actions/setup-go@") })
	install := stepIndex(t, job, "installs skillgit", func(s wfStep) bool {
		return strings.TrimSpace(s.Run) == "go install "+string(module[1])+"/cmd/skillgit@latest"
	})
	sarif := stepIndex(t, job, "runs the SARIF audit", func(s wfStep) bool { return strings.Contains(s.Run, sarifCommand) })
	if job.Steps[sarif].ID != "audit" {
		t.Errorf("the SARIF audit step has id %q; the gate reads steps.audit.outputs.status", job.Steps[sarif].ID)
	}
	if !strings.Contains(job.Steps[sarif].Run, `>> "$GITHUB_OUTPUT"`) {
		t.Errorf("the SARIF audit step does not save its exit status in $GITHUB_OUTPUT:\n%s", job.Steps[sarif].Run)
	}
	markdown := stepIndex(t, job, "runs the Markdown audit", func(s wfStep) bool { return strings.Contains(s.Run, markdownCommand) })
	upload := stepIndex(t, job, "uploads SARIF", func(s wfStep) bool {
		return strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@")
	})
	if w := job.Steps[upload].With; w["sarif_file"] != "audit.sarif" || w["category"] != "skillgit" {
		t.Errorf("upload-sarif with = %v, want sarif_file audit.sarif and category skillgit", w)
	}
	comment := stepIndex(t, job, "comments on the pull request", func(s wfStep) bool {
		script, _ := s.With["script"].(string)
		return strings.HasPrefix(s.Uses, "actions/github-script@") && strings.Contains(script, "audit.md") &&
			strings.Contains(script, "<!-- skillgit-audit -->") && strings.Contains(script, "updateComment")
	})
	gate := stepIndex(t, job, "fails on the saved exit status", func(s wfStep) bool {
		return s.Env["STATUS"] == "${{ steps.audit.outputs.status }}"
	})
	order := []int{checkout, setupGo, install, sarif, markdown, upload, comment, gate}
	if !slices.IsSorted(order) || gate != len(job.Steps)-1 {
		t.Errorf("steps out of order (checkout, setup-go, install, SARIF, Markdown, upload, comment, gate; the gate last): %v of %d", order, len(job.Steps))
	}
	for _, s := range job.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q expands an expression inside its script; pass it through env instead:\n%s", s.Name, s.Run)
		}
	}
	for _, i := range []int{sarif, markdown} {
		if job.Steps[i].Env["BASE_REF"] != "${{ github.base_ref }}" {
			t.Errorf("step %q: env BASE_REF = %q, want ${{ github.base_ref }}", job.Steps[i].Name, job.Steps[i].Env["BASE_REF"])
		}
	}
	if t.Failed() {
		return
	}

	h := newHarness(t)
	base := filepath.Join(h.dir, "base")
	h.must(h.dir, "skillgit", "init", "--no-hooks", base)
	work := filepath.Join(h.dir, "work")
	h.git(h.dir, "clone", "-q", base, work)
	github := map[string]string{"github.base_ref": "main"}

	for _, tc := range []struct {
		name, skill, content string
		status               int
		rule                 string
	}{
		{"benign", "good", goodSkill("good"), 0, ""},
		{"malicious", "evil", evilSkill("evil"), 3, "SG-EXE-005"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.git(work, "checkout", "-q", "-B", "pr-"+tc.name, "origin/main")
			testenv.WriteFiles(t, work, map[string]string{"skills/" + tc.skill + "/SKILL.md": tc.content})
			h.git(work, "add", "-A")
			h.git(work, "commit", "-q", "-m", "add "+tc.skill)

			// Each audit command line on its own exits with the verdict.
			env := []string{"BASE_REF=main"}
			for _, line := range []string{sarifCommand, markdownCommand} {
				if res := h.run(work, "", env, "bash", "-c", line); res.code != tc.status {
					t.Errorf("%s: exit %d, want %d\n%s", line, res.code, tc.status, res.stderr)
				}
			}

			// The steps, run as the runner runs them, succeed and save the verdict.
			output := filepath.Join(t.TempDir(), "github_output")
			for _, s := range []wfStep{job.Steps[sarif], job.Steps[markdown]} {
				res := h.run(work, "", stepEnv(t, s, github, "GITHUB_OUTPUT="+output), "bash", "-e", "-c", s.Run)
				if res.code != 0 {
					t.Fatalf("step %q: exit %d\n%s", s.Name, res.code, res.stderr)
				}
			}
			saved := readText(t, output)
			if want := "status=" + strconv.Itoa(tc.status) + "\n"; saved != want {
				t.Errorf("$GITHUB_OUTPUT = %q, want %q", saved, want)
			}
			checkSARIF(t, filepath.Join(work, "audit.sarif"), tc.rule)
			md := readText(t, filepath.Join(work, "audit.md"))
			if !strings.Contains(md, "<!-- skillgit-audit -->") || !strings.Contains(md, "`"+tc.skill+"`") {
				t.Errorf("audit.md lacks the comment marker or the skill %q:\n%s", tc.skill, md)
			}

			// The gate fails exactly when the audit blocked.
			ctx := map[string]string{"steps.audit.outputs.status": strings.TrimPrefix(strings.TrimSpace(saved), "status=")}
			res := h.run(work, "", stepEnv(t, job.Steps[gate], ctx), "bash", "-e", "-c", job.Steps[gate].Run)
			if (res.code == 0) != (tc.status == 0) {
				t.Errorf("gate step: exit %d with the audit's status %d\n%s%s", res.code, tc.status, res.stdout, res.stderr)
			}
		})
	}
}

// stepEnv is the environment of a step: its env with expressions replaced from ctx (every
// expression must be known), then extra.
func stepEnv(t *testing.T, s wfStep, ctx map[string]string, extra ...string) []string {
	t.Helper()
	expr := regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	var env []string
	for _, k := range keys(s.Env) {
		v := expr.ReplaceAllStringFunc(s.Env[k], func(m string) string {
			name := expr.FindStringSubmatch(m)[1]
			val, ok := ctx[name]
			if !ok {
				t.Fatalf("step %q: env %s uses ${{ %s }}, which the test does not provide", s.Name, k, name)
			}
			return val
		})
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

// checkSARIF parses a SARIF log and checks its version and, when rule is set, that a result
// carries that rule; without rule, that there are no results.
func checkSARIF(t *testing.T, path, rule string) {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readText(t, path)), &log); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "skillgit" {
		t.Fatalf("%s: version %q, %d runs, want SARIF 2.1.0 with one run of skillgit", path, log.Version, len(log.Runs))
	}
	var rules []string
	for _, r := range log.Runs[0].Results {
		rules = append(rules, r.RuleID)
	}
	if rule == "" && len(rules) > 0 || rule != "" && !slices.Contains(rules, rule) {
		t.Errorf("%s: results %v, want %q", path, rules, rule)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
