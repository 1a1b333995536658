package policydiff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

// TestConfigDiffLines checks the summary of a configuration change.
func TestConfigDiffLines(t *testing.T) {
	testenv.Hermetic(t, nil)
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q")
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a, _ := g.Writes().WriteBlob([]byte("mode: manual\naudit:\n  fail_on: high\n"))
	b, _ := g.Writes().WriteBlob([]byte("mode: manual\naudit:\n  fail_on: medium\n  skip_security_audit: true\nserver:\n  protect: true\n"))
	got, err := ConfigLines(g, a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"audit.fail_on: high -> medium", "audit.skip_security_audit: (unset) -> true", "server.protect: (unset) -> true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ConfigLines (-want +got):\n%s", diff)
	}
	long := "x" + strings.Repeat("é", maxPolicyValue)
	c, _ := g.Writes().WriteBlob([]byte("mode: " + long + "\n"))
	got, err = ConfigLines(g, a, c)
	if err != nil || len(got) != 2 || !strings.HasSuffix(got[1], "…") {
		t.Errorf("ConfigLines of a long value: %q, %v; want it cut and marked", got, err)
	}
}
