package auditrun_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

func TestAuditRevPolicyFromBase(t *testing.T) {
	fp := fingerprint(t, testenv.SkillMD("evil", evilLine), "SG-EXE-005")
	tests := []struct {
		name           string
		rev            string
		allowOn        string // the branch whose commit adds the allow list entry
		wantRisk       audit.Risk
		wantVerdict    audit.Verdict
		wantSuppressed bool
		wantEntries    int
	}{
		{"range: entry added by the change is ignored", "main..feature", "feature", audit.RiskHigh, audit.VerdictBlocked, false, 0},
		{"range: entry committed on the base suppresses", "main..feature", "main", audit.RiskLow, audit.VerdictPass, true, 1},
		{"commit: entry on the commit is ignored", "feature", "feature", audit.RiskHigh, audit.VerdictBlocked, false, 0},
		{"commit: entry on the publish branch suppresses", "feature", "main", audit.RiskLow, audit.VerdictPass, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			allow := map[string]string{".skillgit/audit-allow.yaml": allowList(fp, "SG-EXE-005")}
			if tc.allowOn == "main" {
				testenv.WriteFiles(t, repo, allow)
				testenv.CommitAll(t, repo, "accept the installer")
			}
			testenv.Git(t, repo, "checkout", "-q", "-b", "feature")
			testenv.WriteFiles(t, repo, map[string]string{"skills/evil/SKILL.md": testenv.SkillMD("evil", evilLine)})
			if tc.allowOn == "feature" {
				testenv.WriteFiles(t, repo, allow)
			}
			testenv.CommitAll(t, repo, "add evil")

			run := mustAudit(t, auditrun.Request{Dir: repo, Rev: tc.rev})
			if got := reportPaths(run); !slices.Equal(got, []string{"skills/evil"}) {
				t.Fatalf("reports %v; want only skills/evil", got)
			}
			f := findingOf(t, run.Reports[0], "SG-EXE-005", "evil.example.com")
			if got := f.Suppressed != ""; got != tc.wantSuppressed {
				t.Errorf("finding suppressed = %v (reason %q); want %v", got, f.Suppressed, tc.wantSuppressed)
			}
			if got := run.Reports[0].Report.Risk; got != tc.wantRisk {
				t.Errorf("risk %v; want %v", got, tc.wantRisk)
			}
			if run.Verdict != tc.wantVerdict {
				t.Errorf("verdict %v; want %v", run.Verdict, tc.wantVerdict)
			}
			if got := allowEntries(run.Policy); run.Policy.From != "main" || got != tc.wantEntries {
				t.Errorf("policy from %q with %d allow entries; want from main with %d", run.Policy.From, got, tc.wantEntries)
			}
		})
	}
}

func TestAuditRevFailOnFromBase(t *testing.T) {
	tests := []struct {
		name                              string
		baseFailOn, headFailOn, reqFailOn string // "" leaves the default (high), or the policy
		want                              audit.Risk
		wantVerdict                       audit.Verdict
	}{
		{"change setting low is ignored", "", "low", "", audit.RiskHigh, audit.VerdictReview},
		{"change relaxing medium to high is ignored", "medium", "high", "", audit.RiskMedium, audit.VerdictBlocked},
		{"base setting low applies", "low", "", "", audit.RiskLow, audit.VerdictBlocked},
		{"request overrides the policy", "", "high", "medium", audit.RiskMedium, audit.VerdictBlocked},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			if tc.baseFailOn != "" {
				writeConfig(t, repo, tc.baseFailOn)
				testenv.CommitAll(t, repo, "policy")
			}
			testenv.Git(t, repo, "checkout", "-q", "-b", "feature")
			testenv.WriteFiles(t, repo, map[string]string{"skills/med/SKILL.md": testenv.SkillMD("med", mediumLine)})
			if tc.headFailOn != "" {
				writeConfig(t, repo, tc.headFailOn)
			}
			testenv.CommitAll(t, repo, "add med")

			run := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main..feature", FailOn: tc.reqFailOn})
			if run.FailOn != tc.want || run.Verdict != tc.wantVerdict {
				t.Errorf("fail on %v, verdict %v; want %v, %v", run.FailOn, run.Verdict, tc.want, tc.wantVerdict)
			}
		})
	}
}

func TestAuditFailOnRequestInvalid(t *testing.T) {
	repo := newRepo(t)
	_, err := lifecycle.Audit(auditrun.Request{Dir: repo, Rev: "main", FailOn: "severe"})
	if err == nil || !strings.Contains(err.Error(), "--fail-on") || !strings.Contains(err.Error(), "severe") {
		t.Errorf("error %v; want one about --fail-on naming severe", err)
	}
}

func TestAuditRevRangeOnlyChangedSkills(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/alpha/SKILL.md":     testenv.SkillMD("alpha", evilLine),
		"skills/beta/SKILL.md":      testenv.SkillMD("beta", cleanLine),
		"skills/cat/gamma/SKILL.md": testenv.SkillMD("gamma", cleanLine),
	})
	testenv.CommitAll(t, repo, "publish three")
	testenv.Git(t, repo, "checkout", "-q", "-b", "feature")
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/alpha/SKILL.md":     testenv.SkillMD("alpha", evilLine, otherLine),
		"skills/cat/delta/SKILL.md": testenv.SkillMD("delta", mediumLine),
		"skills/ops/eps/SKILL.md":   testenv.SkillMD("eps", cleanLine),
	})
	testenv.Git(t, repo, "rm", "-q", "-r", "skills/beta")
	testenv.CommitAll(t, repo, "change alpha, add delta and eps, delete beta")

	changed := []string{"skills/alpha", "skills/cat/delta", "skills/ops/eps"}
	tests := []struct {
		rev  string
		want []string
	}{
		{"main..feature", changed},
		{"main..", changed}, // HEAD is feature
		{"main..main", nil},
		{"feature..feature", nil},
	}
	for _, tc := range tests {
		t.Run(tc.rev, func(t *testing.T) {
			run := mustAudit(t, auditrun.Request{Dir: repo, Rev: tc.rev})
			if diff := cmp.Diff(tc.want, reportPaths(run)); diff != "" {
				t.Errorf("reported skills (-want +got):\n%s", diff)
			}
			if run.Title != tc.rev {
				t.Errorf("title %q; want %q", run.Title, tc.rev)
			}
			if tc.want == nil && run.Verdict != audit.VerdictPass {
				t.Errorf("verdict %v with nothing changed; want PASS", run.Verdict)
			}
		})
	}
}

func TestAuditRevRangeMarksNewFindings(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", evilLine)})
	testenv.CommitAll(t, repo, "publish alpha")
	testenv.Git(t, repo, "checkout", "-q", "-b", "feature")
	// The added finding goes into a file of its own: findings of one rule in one file are
	// one finding, which a new match makes new as a whole.
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/alpha/references/more.md": otherLine + "\n",
		"skills/cat/delta/SKILL.md":       testenv.SkillMD("delta", evilLine),
	})
	testenv.CommitAll(t, repo, "change alpha, add delta")

	run := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main..feature"})
	if got := reportPaths(run); !slices.Equal(got, []string{"skills/alpha", "skills/cat/delta"}) {
		t.Fatalf("reports %v; want skills/alpha and skills/cat/delta", got)
	}
	alpha, delta := run.Reports[0], run.Reports[1]
	if alpha.Base != "main" || delta.Base != "" {
		t.Errorf("bases %q and %q; want main for the changed skill and none for the new one", alpha.Base, delta.Base)
	}
	if f := findingOf(t, alpha, "SG-EXE-005", "evil.example.com"); f.New {
		t.Errorf("pre-existing finding %s is New", f.Snippet)
	}
	if f := findingOf(t, alpha, "SG-EXE-005", "other.example.org"); !f.New {
		t.Errorf("added finding %s is not New", f.Snippet)
	}
	if f := findingOf(t, delta, "SG-EXE-005", "evil.example.com"); !f.New {
		t.Errorf("finding %s of a new skill is not New", f.Snippet)
	}
}

func TestAuditRevSingleListsEverySkill(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/alpha/SKILL.md":     testenv.SkillMD("alpha", cleanLine),
		"skills/broken/SKILL.md":    "---\nname: [broken\ndescription: \"unclosed\n---\nBody.\n",
		"skills/cat/gamma/SKILL.md": testenv.SkillMD("gamma", evilLine),
	})
	testenv.CommitAll(t, repo, "publish")
	testenv.Git(t, repo, "checkout", "-q", "-b", "feature")
	testenv.WriteFiles(t, repo, map[string]string{"skills/cat/delta/SKILL.md": testenv.SkillMD("delta", cleanLine)})
	testenv.CommitAll(t, repo, "add delta")

	tests := []struct {
		rev  string
		want []string
	}{
		{"main", []string{"skills/alpha", "skills/broken", "skills/cat/gamma"}},
		{"feature", []string{"skills/alpha", "skills/broken", "skills/cat/delta", "skills/cat/gamma"}},
	}
	for _, tc := range tests {
		t.Run(tc.rev, func(t *testing.T) {
			run := mustAudit(t, auditrun.Request{Dir: repo, Rev: tc.rev})
			if diff := cmp.Diff(tc.want, reportPaths(run)); diff != "" {
				t.Errorf("reported skills (-want +got):\n%s", diff)
			}
			for _, r := range run.Reports {
				if r.Base != "" || r.Report == nil {
					t.Errorf("%s: base %q, report %v; want no base and a report", r.Path, r.Base, r.Report)
				}
			}
			if run.Verdict != audit.VerdictBlocked {
				t.Errorf("verdict %v; want BLOCKED by skills/cat/gamma", run.Verdict)
			}
		})
	}
}

func TestAuditRevRangeFindsWhatCatalogFinds(t *testing.T) {
	repo := newRepo(t)
	testenv.Git(t, repo, "checkout", "-q", "-b", "feature")
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/l1/l2/l3/l4/l5/deep6/SKILL.md":    testenv.SkillMD("deep6", cleanLine),
		"skills/l1/l2/l3/l4/l5/l6/deep7/SKILL.md": testenv.SkillMD("deep7", cleanLine),
		"skills/.hidden/SKILL.md":                 testenv.SkillMD("hidden", cleanLine),
		"skills/top/SKILL.md":                     testenv.SkillMD("top", cleanLine),
	})
	testenv.CommitAll(t, repo, "add skills at every depth")

	want := []string{"skills/l1/l2/l3/l4/l5/deep6", "skills/top"}
	for _, rev := range []string{"main..feature", "feature"} {
		if diff := cmp.Diff(want, reportPaths(mustAudit(t, auditrun.Request{Dir: repo, Rev: rev}))); diff != "" {
			t.Errorf("%s: reported skills (-want +got):\n%s", rev, diff)
		}
	}
}

func TestAuditRevCache(t *testing.T) {
	repo := publishedRepo(t)
	dir := auditCacheDir(t, repo)
	if !strings.HasPrefix(dir, filepath.Join(gitDirOf(t, repo), "skillgit", "cache", "audit")) {
		t.Fatalf("cache folder %s is not under the git directory", dir)
	}
	req := auditrun.Request{Dir: repo, Rev: "main"}
	first := mustAudit(t, req)
	entries := testenv.FileInfos(t, dir)
	if len(entries) != len(first.Reports)+1 {
		t.Fatalf("%d cache entries after auditing %d skills; want one each and one for the whole result", len(entries), len(first.Reports))
	}

	t.Run("second run equals the first and rewrites nothing", func(t *testing.T) {
		if diff := cmp.Diff(first, mustAudit(t, req)); diff != "" {
			t.Errorf("cached run (-first +second):\n%s", diff)
		}
		assertSameFiles(t, entries, testenv.FileInfos(t, dir))
	})
	t.Run("deleted cache changes nothing", func(t *testing.T) {
		testenv.RemoveAll(t, dir)
		if diff := cmp.Diff(first, mustAudit(t, req)); diff != "" {
			t.Errorf("run after deleting the cache (-first +got):\n%s", diff)
		}
		if n := len(testenv.FileInfos(t, dir)); n != len(first.Reports)+1 {
			t.Errorf("%d cache entries after a run over a deleted cache; want %d", n, len(first.Reports)+1)
		}
	})
	t.Run("NoCache writes nothing", func(t *testing.T) {
		testenv.RemoveAll(t, dir)
		if diff := cmp.Diff(first, mustAudit(t, auditrun.Request{Dir: repo, Rev: "main", NoCache: true})); diff != "" {
			t.Errorf("run without cache (-first +got):\n%s", diff)
		}
		if n := len(testenv.FileInfos(t, dir)); n != 0 {
			t.Errorf("%d cache entries after a run with NoCache; want none", n)
		}
	})
}

func TestAuditPathsCache(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	dir := auditCacheDir(t, repo)
	req := auditrun.Request{Dir: repo, Paths: []string{"skills/alpha"}}
	first := mustAudit(t, req)
	entries := testenv.FileInfos(t, dir)
	if len(entries) != 1 {
		t.Fatalf("%d cache entries after auditing one folder; want 1", len(entries))
	}

	t.Run("entry is keyed by the folder's tree id", func(t *testing.T) {
		id, err := gitstore.HashDir(os.DirFS(filepath.Join(repo, "skills", "alpha")), ".")
		if err != nil {
			t.Fatal(err)
		}
		key := (&auditrun.Auditor{Policy: first.Policy}).ItemPolicy(auditrun.Item{Name: "alpha"})
		got, ok := (&audit.Cache{Dir: dir}).Get(id.String(), key, "")
		if !ok {
			t.Fatalf("no cache entry for tree %s", id)
		}
		if diff := cmp.Diff(first.Reports[0].Report, got); diff != "" {
			t.Errorf("cached report (-run +cache):\n%s", diff)
		}
	})
	t.Run("unchanged folder is served from the cache", func(t *testing.T) {
		if diff := cmp.Diff(first, mustAudit(t, req)); diff != "" {
			t.Errorf("second run (-first +second):\n%s", diff)
		}
		assertSameFiles(t, entries, testenv.FileInfos(t, dir))
	})
	t.Run("edited folder is scanned again", func(t *testing.T) {
		testenv.WriteFiles(t, repo, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine, evilLine)})
		run := mustAudit(t, req)
		findingOf(t, run.Reports[0], "SG-EXE-005", "evil.example.com")
		if n := len(testenv.FileInfos(t, dir)); n != 2 {
			t.Errorf("%d cache entries after auditing an edited folder; want 2", n)
		}
	})
	t.Run("edit undone hits the first entry", func(t *testing.T) {
		testenv.WriteFiles(t, repo, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
		before := testenv.FileInfos(t, dir)
		if diff := cmp.Diff(first, mustAudit(t, req)); diff != "" {
			t.Errorf("run after undoing the edit (-first +got):\n%s", diff)
		}
		assertSameFiles(t, before, testenv.FileInfos(t, dir))
	})
}

func TestAuditPaths(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"skill folder", []string{"skills/alpha"}, []string{"skills/alpha"}},
		{"SKILL.md file", []string{"skills/alpha/SKILL.md"}, []string{"skills/alpha"}},
		{"folder of skills", []string{"skills"}, []string{"skills/alpha", "skills/beta", "skills/cat/gamma"}},
		{"several paths in order", []string{"skills/cat", "skills/alpha"}, []string{"skills/cat/gamma", "skills/alpha"}},
	}
	hermetic(t)
	for _, where := range []string{"plain folder", "git repository without skillgit"} {
		dir := t.TempDir()
		if where != "plain folder" {
			testenv.Git(t, dir, "init", "-q")
		}
		testenv.WriteFiles(t, dir, sampleSkills())
		for _, tc := range tests {
			t.Run(where+"/"+tc.name, func(t *testing.T) {
				run := mustAudit(t, auditrun.Request{Dir: dir, Paths: tc.paths})
				if diff := cmp.Diff(tc.want, reportPaths(run)); diff != "" {
					t.Errorf("reported skills (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(policy.DefaultAuditPolicy(), run.Policy); diff != "" {
					t.Errorf("policy outside a skillgit repository (-default +got):\n%s", diff)
				}
			})
		}
	}
}

func TestAuditPathsErrors(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, sampleSkills())
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/notes.md": "Notes.\n", "empty/README.md": "Nothing here.\n"})
	tests := []struct {
		name, path string
		want       []string
	}{
		{"missing path", "nope", []string{"nope", "no such file"}},
		{"file that is not SKILL.md", "skills/alpha/notes.md", []string{"skills/alpha/notes.md", "not a skill folder"}},
		{"folder without skills", "empty", []string{"empty", "no skills found"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := lifecycle.Audit(auditrun.Request{Dir: dir, Paths: []string{tc.path}})
			if err == nil {
				t.Fatalf("audit of %s succeeded; want an error", tc.path)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestAuditNeedsRepository(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, sampleSkills())
	for _, req := range []auditrun.Request{
		{Dir: dir, Rev: "main"},
		{Dir: dir, Rev: "main..HEAD"},
		{Dir: dir, Paths: []string{"skills"}, Base: "main"},
	} {
		_, err := lifecycle.Audit(req)
		if err == nil || !strings.Contains(err.Error(), "needs a skillgit repository") {
			t.Errorf("lifecycle.Audit(%+v) error %v; want one saying it needs a skillgit repository", req, err)
		}
	}
}

func TestAuditRevWithPathsOrBase(t *testing.T) {
	repo := newRepo(t)
	for _, req := range []auditrun.Request{
		{Dir: repo, Rev: "main", Paths: []string{"skills"}},
		{Dir: repo, Rev: "main", Base: "main"},
	} {
		if _, err := lifecycle.Audit(req); err == nil || !strings.Contains(err.Error(), "cannot be combined") {
			t.Errorf("lifecycle.Audit(%+v) error %v; want one saying --rev cannot be combined", req, err)
		}
	}
}

func TestAuditPathsInRepository(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, sampleSkills())
	testenv.CommitAll(t, repo, "publish")
	tests := []struct {
		name, dir string
		paths     []string
		want      []string
	}{
		{"default is the skills folder", repo, nil, []string{"skills/alpha", "skills/beta", "skills/cat/gamma"}},
		{"path from a subfolder is shown from the root", filepath.Join(repo, "skills"), []string{"cat"}, []string{"skills/cat/gamma"}},
		{"absolute path is shown from the root", repo, []string{filepath.Join(repo, "skills", "alpha")}, []string{"skills/alpha"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := mustAudit(t, auditrun.Request{Dir: tc.dir, Paths: tc.paths})
			if diff := cmp.Diff(tc.want, reportPaths(run)); diff != "" {
				t.Errorf("reported skills (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAuditPathsPolicyFromPublishBranch(t *testing.T) {
	fp := fingerprint(t, testenv.SkillMD("evil", evilLine), "SG-EXE-005")
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{".skillgit/audit-allow.yaml": allowList(fp, "SG-EXE-005")})
	testenv.CommitAll(t, repo, "accept the installer")
	testenv.WriteFiles(t, repo, map[string]string{"skills/evil/SKILL.md": testenv.SkillMD("evil", evilLine)})

	run := mustAudit(t, auditrun.Request{Dir: repo, Paths: []string{"skills/evil"}})
	if f := findingOf(t, run.Reports[0], "SG-EXE-005", "evil.example.com"); f.Suppressed == "" {
		t.Errorf("finding not suppressed by the allow list on main")
	}
	if run.Policy.From != "main" || run.Verdict != audit.VerdictPass {
		t.Errorf("policy from %q, verdict %v; want from main and PASS", run.Policy.From, run.Verdict)
	}
}

func TestAuditBase(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{"skills/x/SKILL.md": testenv.SkillMD("x", evilLine)})
	testenv.CommitAll(t, repo, "publish x")
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/x/references/more.md": otherLine + "\n",
		"skills/y/SKILL.md":           testenv.SkillMD("y", evilLine),
	})
	tests := []struct {
		name, path, base    string
		wantBase, wantTitle string
		wantOldNew, wantNew bool // New of the evil.example.com and the other.example.org finding
	}{
		{"edited skill against main", "skills/x", "main", "main", "skills/x against main", false, true},
		{"edited skill without base", "skills/x", "", "", "skills/x", true, true},
		{"skill missing from the base", "skills/y", "main", "", "skills/y against main", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := mustAudit(t, auditrun.Request{Dir: repo, Paths: []string{tc.path}, Base: tc.base})
			if got := reportPaths(run); !slices.Equal(got, []string{tc.path}) {
				t.Fatalf("reports %v; want %s", got, tc.path)
			}
			sr := run.Reports[0]
			if sr.Base != tc.wantBase || run.Title != tc.wantTitle {
				t.Errorf("base %q, title %q; want %q, %q", sr.Base, run.Title, tc.wantBase, tc.wantTitle)
			}
			if f := findingOf(t, sr, "SG-EXE-005", "evil.example.com"); f.New != tc.wantOldNew {
				t.Errorf("finding %s: New = %v; want %v", f.Snippet, f.New, tc.wantOldNew)
			}
			if tc.path == "skills/x" {
				if f := findingOf(t, sr, "SG-EXE-005", "other.example.org"); f.New != tc.wantNew {
					t.Errorf("finding %s: New = %v; want %v", f.Snippet, f.New, tc.wantNew)
				}
			}
		})
	}
}

func TestAuditBaseOutsideWorktree(t *testing.T) {
	repo := newRepo(t)
	outside := t.TempDir()
	testenv.WriteFiles(t, outside, sampleSkills())
	path := filepath.Join(outside, "skills", "alpha")
	_, err := lifecycle.Audit(auditrun.Request{Dir: repo, Paths: []string{path}, Base: "main"})
	if err == nil || !strings.Contains(err.Error(), filepath.ToSlash(path)) || !strings.Contains(err.Error(), "outside") {
		t.Errorf("error %v; want one naming %s as outside the working tree", err, path)
	}
}

func TestAuditBasePolicyFromBase(t *testing.T) {
	fp := fingerprint(t, testenv.SkillMD("evil", evilLine), "SG-EXE-005")
	repo := newRepo(t)
	testenv.Git(t, repo, "checkout", "-q", "-b", "accepted")
	testenv.WriteFiles(t, repo, map[string]string{".skillgit/audit-allow.yaml": allowList(fp, "SG-EXE-005")})
	testenv.CommitAll(t, repo, "accept the installer")
	testenv.Git(t, repo, "checkout", "-q", "main")
	testenv.WriteFiles(t, repo, map[string]string{"skills/evil/SKILL.md": testenv.SkillMD("evil", evilLine)})
	tests := []struct {
		base           string
		wantSuppressed bool
	}{
		{"accepted", true},
		{"main", false},
	}
	for _, tc := range tests {
		t.Run(tc.base, func(t *testing.T) {
			run := mustAudit(t, auditrun.Request{Dir: repo, Paths: []string{"skills/evil"}, Base: tc.base})
			f := findingOf(t, run.Reports[0], "SG-EXE-005", "evil.example.com")
			if got := f.Suppressed != ""; got != tc.wantSuppressed || run.Policy.From != tc.base {
				t.Errorf("suppressed = %v under the policy of %q; want %v under %q", got, run.Policy.From, tc.wantSuppressed, tc.base)
			}
		})
	}
}
