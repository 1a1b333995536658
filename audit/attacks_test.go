package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/attackgen"
)

// attackSkill is one skill of the malicious fixture set.
type attackSkill struct {
	family, name, dir string
}

// attackSkills lists testdata/attacks/<family>/<variant> and, unless the
// tests run short, the generated family of payloads behind unaudited
// content, written into a temporary folder.
func attackSkills(t *testing.T) []attackSkill {
	t.Helper()
	root := filepath.Join("testdata", "attacks")
	var out []attackSkill
	for _, family := range fixtureDirs(t, "attacks") {
		entries, err := os.ReadDir(filepath.Join(root, family))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, attackSkill{family, e.Name(), filepath.Join(root, family, e.Name())})
			}
		}
	}
	if testing.Short() {
		return out
	}
	dirs, err := attackgen.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		out = append(out, attackSkill{attackgen.Family, filepath.Base(d), d})
	}
	return out
}

// TestAttackFixtures scans every malicious fixture: at least 95 % must
// be medium or above and at least 80 % high, every family must hold ten
// skills or more, and every skill must be a valid skill named after its
// folder, so that the audit is not judged on broken fixtures.
func TestAttackFixtures(t *testing.T) {
	skills := attackSkills(t)
	perFamily := map[string]int{}
	var high, medium int
	var missed []string
	for _, s := range skills {
		perFamily[s.family]++
		checkFixtureName(t, s)
		rep, err := Scan(os.DirFS(s.dir), Options{})
		if err != nil {
			t.Fatalf("%s/%s: %v", s.family, s.name, err)
		}
		switch rep.Risk {
		case RiskHigh:
			high++
			continue
		case RiskMedium:
			medium++
		}
		missed = append(missed, fmt.Sprintf("%s/%s: %s", s.family, s.name, rep.Risk))
	}
	for family, n := range perFamily {
		if n < 10 {
			t.Errorf("family %s has %d skills; want at least 10", family, n)
		}
	}
	total := len(skills)
	if total < 150 && !testing.Short() {
		t.Errorf("%d malicious skills; want at least 150", total)
	}
	if (high+medium)*100 < total*95 || high*100 < total*80 {
		slices.Sort(missed)
		t.Errorf("%d of %d at medium or above (want 95 %%), %d high (want 80 %%); not high:\n  %s",
			high+medium, total, high, strings.Join(missed, "\n  "))
	}
	t.Logf("attacks: %d skills in %d families, %d high (%.1f %%), %d medium; not high: %v",
		total, len(perFamily), high, 100*float64(high)/float64(max(total, 1)), medium, missed)
}

func checkFixtureName(t *testing.T, s attackSkill) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, "SKILL.md"))
	if err != nil {
		t.Errorf("%s/%s: %v", s.family, s.name, err)
		return
	}
	head, _, _ := bytes.Cut(bytes.TrimPrefix(data, []byte("---\n")), []byte("\n---\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) || !bytes.Contains(head, []byte("\nname: "+s.name+"\n")) && !bytes.HasPrefix(head, []byte("name: "+s.name+"\n")) || !bytes.Contains(head, []byte("description: ")) {
		t.Errorf("%s/%s: SKILL.md needs frontmatter with name %q and a description", s.family, s.name, s.name)
	}
}
