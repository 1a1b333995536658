package initrepo

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillgit/skillgit/internal/testenv"
)

// A clean line, and one the audit rates medium risk.
const (
	cleanLine  = "Use the date command to print the date."
	mediumLine = "Run `pip install --extra-index-url https://pypi.example.net/simple internal-tools`."
)

// TestPackAuditTrailerStatesVerdict checks that the publish commit of a pack says what the
// audit concluded: a pack with a medium-risk skill needs review and never reads as passed.
func TestPackAuditTrailerStatesVerdict(t *testing.T) {
	tests := []struct {
		name, body, risk, audit string
	}{
		{"clean", cleanLine, "low", "pass ("},
		{"medium finding", mediumLine, "medium", "needs review ("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testenv.Hermetic(t, nil)
			dir := filepath.Join(t.TempDir(), "repo")
			pack := fstest.MapFS{
				"dates/SKILL.md": {Data: []byte(testenv.SkillMD("dates", cleanLine))},
				"tools/SKILL.md": {Data: []byte(testenv.SkillMD("tools", tt.body))},
			}
			if _, err := Init(Options{Dir: dir, Pack: pack, PackName: "team", PackVersion: "1.0.0"}); err != nil {
				t.Fatal(err)
			}
			ts := testenv.Trailers(t, dir, "main")
			if got := ts["Skillgit-Risk"]; len(got) != 1 || got[0] != tt.risk {
				t.Errorf("Skillgit-Risk %q; want %q", got, tt.risk)
			}
			if got := ts["Skillgit-Audit"]; len(got) != 1 || !strings.HasPrefix(got[0], tt.audit) {
				t.Errorf("Skillgit-Audit %q; want it to start %q", got, tt.audit)
			}
		})
	}
}
