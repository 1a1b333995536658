package auditrun_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// TestAuditStagedScope checks which committed skills the wider pre-commit scopes audit: every
// one with All, else the skill folder of each file given, nested in categories or not, with
// file names relative to the folder the hook runs in.
func TestAuditStagedScope(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/alpha/SKILL.md":            testenv.SkillMD("alpha", evilLine),
		"skills/alpha/scripts/run.sh":      "echo hi\n",
		"skills/beta/SKILL.md":             testenv.SkillMD("beta", cleanLine),
		"skills/cat/gamma/SKILL.md":        testenv.SkillMD("gamma", mediumLine),
		"skills/cat/gamma/notes/a/b/c.txt": "notes\n",
		"skills/README.md":                 "The skills.\n",
	})
	testenv.CommitAll(t, repo, "publish")
	tests := []struct {
		name  string
		dir   string
		scope auditrun.StagedScope
		want  []string
	}{
		{"nothing staged", repo, auditrun.StagedScope{}, nil},
		{"all", repo, auditrun.StagedScope{All: true}, []string{"skills/alpha", "skills/beta", "skills/cat/gamma"}},
		{"files", repo, auditrun.StagedScope{Files: []string{"skills/alpha/scripts/run.sh", "skills/cat/gamma/notes/a/b/c.txt", "skills/alpha/SKILL.md"}},
			[]string{"skills/alpha", "skills/cat/gamma"}},
		{"files outside any skill", repo, auditrun.StagedScope{Files: []string{"skills/README.md", ".skillgit.yaml", "skills/nosuch/x", "skills/cat/x.md"}}, nil},
		{"relative to a subfolder", filepath.Join(repo, "skills", "cat"), auditrun.StagedScope{Files: []string{"gamma/SKILL.md", "../beta/SKILL.md"}},
			[]string{"skills/beta", "skills/cat/gamma"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, err := lifecycle.AuditStagedScope(tt.dir, tt.scope, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, sr := range run.Reports {
				got = append(got, sr.Path)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("audited skills (-want +got):\n%s", diff)
			}
			if len(run.Problems) != 0 {
				t.Errorf("validation problems: %v", run.Problems)
			}
		})
	}
}
