package lifecycle

import (
	"strings"
	"testing"
)

// TestAuditTrailerStatesVerdict: the Skillgit-Audit trailer of propose and revise says the
// verdict the policy reached, so a blocked change never reads "pass".
func TestAuditTrailerStatesVerdict(t *testing.T) {
	dir := newRepo(t)
	clean := proposeNew(t, dir, "clean", cleanLine)
	medium := proposeNew(t, dir, "medium", cleanLine, mediumLine)
	evil := proposeNew(t, dir, "evil", cleanLine, evilLine)
	for _, tc := range []struct {
		res  *Result
		want string
	}{{clean, "pass ("}, {medium, "needs review ("}, {evil, "blocked ("}} {
		got := gitTrailers(t, dir, tc.res.Commit)["Skillgit-Audit"]
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s (risk %s): Skillgit-Audit %q; want it to start %q", tc.res.ID, tc.res.Risk, got, tc.want)
		}
		if c := candidateState(t, dir, tc.res.ID); !strings.HasPrefix(c.Audit, tc.want) {
			t.Errorf("%s: candidate audit %q; want it to start %q", tc.res.ID, c.Audit, tc.want)
		}
	}

	src := t.TempDir()
	writeFiles(t, src, map[string]string{"clean/SKILL.md": skillMD("clean", cleanLine, evilLine)})
	rev, err := open(t, dir).Revise(clean.ID, ProposeOptions{ActOptions: agent, From: src + "/clean", Message: "more"})
	if err != nil {
		t.Fatalf("revise: %v", err)
	}
	if got := gitTrailers(t, dir, rev.Commit)["Skillgit-Audit"]; len(got) != 1 || !strings.HasPrefix(got[0], "blocked (") {
		t.Errorf("revise to a high-risk version: Skillgit-Audit %q; want blocked (…)", got)
	}
}
