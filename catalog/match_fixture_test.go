package catalog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Floors the matcher must hold on testdata/match. Raise them when the matcher
// improves; never lower them, or edit tasks.yaml, to let a change pass.
const (
	minTop1Accuracy = 0.80
	minTop3Accuracy = 0.92
)

// fixtureSkill is one entry of testdata/match/skills.yaml.
type fixtureSkill struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// fixtureTask is one entry of testdata/match/tasks.yaml. An empty Top1 means
// that no skill should match.
type fixtureTask struct {
	Task string   `yaml:"task"`
	Top1 string   `yaml:"top1"`
	Top3 []string `yaml:"top3"`
	// Hint is the skill the task names itself, as $name or "skill: name".
	Hint string `yaml:"hint"`
}

// loadMatchFixture decodes testdata/match/name into v, rejecting unknown keys.
func loadMatchFixture(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "match", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// fixtureSkills returns the skills of skills.yaml, each in skills/<name>.
func fixtureSkills(t *testing.T) []*Skill {
	t.Helper()
	var entries []fixtureSkill
	loadMatchFixture(t, "skills.yaml", &entries)
	skills := make([]*Skill, len(entries))
	for i, e := range entries {
		skills[i] = &Skill{Name: e.Name, Description: e.Description, Dir: "skills/" + e.Name}
	}
	return skills
}

// fixtureTasks returns the tasks of tasks.yaml.
func fixtureTasks(t *testing.T) []fixtureTask {
	t.Helper()
	var tasks []fixtureTask
	loadMatchFixture(t, "tasks.yaml", &tasks)
	return tasks
}

// matchNames returns the skill names of ms in rank order.
func matchNames(ms []Match) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Skill.Name
	}
	return names
}

// describeMatches lists ms one a line with their reasons, for a log.
func describeMatches(ms []Match) string {
	if len(ms) == 0 {
		return " (no match)"
	}
	var b strings.Builder
	for i, m := range ms {
		fmt.Fprintf(&b, "\n  %d. %s: %s", i+1, m.Skill.Name, m.Reason)
	}
	return b.String()
}

// rankHits reports whether names has want first and any of top3 in its first three.
func rankHits(names []string, want string, top3 []string) (top1, inTop3 bool) {
	if want == "" {
		return len(names) == 0, len(names) == 0
	}
	top1 = len(names) > 0 && names[0] == want
	for _, n := range names[:min(3, len(names))] {
		if slices.Contains(top3, n) {
			inTop3 = true
		}
	}
	return top1, inTop3
}

// TestMatchFixtureAccuracy ranks every task of tasks.yaml and holds the
// matcher to the accuracy floors. Misses are logged with what came back, so
// that tuning starts from the log.
func TestMatchFixtureAccuracy(t *testing.T) {
	m := NewMatcher(fixtureSkills(t))
	tasks := fixtureTasks(t)
	var hits1, hits3 int
	for _, tc := range tasks {
		got := m.Match(tc.Task, MatchOptions{Limit: 3})
		names := matchNames(got.Matches)
		if tc.Top1 == "" && len(names) != 0 {
			t.Errorf("%q: want no match, got %v", tc.Task, names)
		}
		top1, top3 := rankHits(names, tc.Top1, tc.Top3)
		if top1 {
			hits1++
		}
		if top3 {
			hits3++
		}
		if !top1 || !top3 {
			t.Logf("miss %q\n  want %q first, any of %v in the first three; got:%s",
				tc.Task, tc.Top1, tc.Top3, describeMatches(got.Matches))
		}
	}
	acc1 := float64(hits1) / float64(len(tasks))
	acc3 := float64(hits3) / float64(len(tasks))
	t.Logf("top-1 accuracy %.3f (%d/%d), top-3 accuracy %.3f (%d/%d)",
		acc1, hits1, len(tasks), acc3, hits3, len(tasks))
	if acc1 < minTop1Accuracy {
		t.Errorf("top-1 accuracy %.3f is below the floor %.2f", acc1, minTop1Accuracy)
	}
	if acc3 < minTop3Accuracy {
		t.Errorf("top-3 accuracy %.3f is below the floor %.2f", acc3, minTop3Accuracy)
	}
}

// TestMatchFixtureHints checks that a skill a task names itself ranks first
// as a hint, whatever the rest of the task says.
func TestMatchFixtureHints(t *testing.T) {
	m := NewMatcher(fixtureSkills(t))
	for _, tc := range fixtureTasks(t) {
		if tc.Hint == "" {
			continue
		}
		t.Run(tc.Hint, func(t *testing.T) {
			got := m.Match(tc.Task, MatchOptions{Limit: 3})
			if len(got.Matches) == 0 {
				t.Fatalf("%q: no match, want %s first", tc.Task, tc.Hint)
			}
			first := got.Matches[0]
			if first.Skill.Name != tc.Hint || !first.Hint || first.Reason != "hint" {
				t.Errorf("%q: first match %s (hint %t, reason %q), want %s as a hint:%s",
					tc.Task, first.Skill.Name, first.Hint, first.Reason, tc.Hint, describeMatches(got.Matches))
			}
			if len(got.UnknownHints) != 0 {
				t.Errorf("%q: unknown hints %v, want none", tc.Task, got.UnknownHints)
			}
		})
	}
}

// TestMatchFixtureSane checks the fixture itself: valid, unique skill names,
// and tasks whose expectations name skills that exist and agree with each other.
func TestMatchFixtureSane(t *testing.T) {
	skills := fixtureSkills(t)
	known := map[string]bool{}
	for _, s := range skills {
		if err := ValidateName(s.Name); err != nil {
			t.Errorf("skills.yaml: %v", err)
		}
		if s.Description == "" || len([]rune(s.Description)) > MaxDescriptionLength {
			t.Errorf("skills.yaml: %s: description has %d characters", s.Name, len([]rune(s.Description)))
		}
		if known[s.Name] {
			t.Errorf("skills.yaml: %s appears twice", s.Name)
		}
		known[s.Name] = true
	}
	tasks := fixtureTasks(t)
	var hints, none int
	for _, tc := range tasks {
		if err := checkFixtureTask(tc, known); err != nil {
			t.Errorf("tasks.yaml: %q: %v", tc.Task, err)
		}
		if tc.Hint != "" {
			hints++
		}
		if tc.Top1 == "" {
			none++
		}
	}
	if len(skills) < 60 || len(tasks) < 25 || hints < 3 || none < 2 {
		t.Errorf("fixture too small: %d skills, %d tasks, %d hint tasks, %d no-match tasks; want at least 60, 25, 3 and 2",
			len(skills), len(tasks), hints, none)
	}
}

// checkFixtureTask reports what is inconsistent in one task of tasks.yaml.
func checkFixtureTask(tc fixtureTask, known map[string]bool) error {
	if tc.Top1 == "" {
		if len(tc.Top3) != 0 || tc.Hint != "" {
			return fmt.Errorf("no match expected, yet top3 %v and hint %q", tc.Top3, tc.Hint)
		}
		return nil
	}
	if !slices.Contains(tc.Top3, tc.Top1) {
		return fmt.Errorf("top3 %v lacks top1 %s", tc.Top3, tc.Top1)
	}
	for _, n := range tc.Top3 {
		if !known[n] {
			return fmt.Errorf("%s is not in skills.yaml", n)
		}
	}
	if tc.Hint == "" {
		return nil
	}
	if tc.Hint != tc.Top1 {
		return fmt.Errorf("hint %s is not top1 %s", tc.Hint, tc.Top1)
	}
	if !strings.Contains(tc.Task, "$"+tc.Hint) && !strings.Contains(tc.Task, "skill: "+tc.Hint) {
		return fmt.Errorf("hint %s is not named in the task as $%[1]s or skill: %[1]s", tc.Hint)
	}
	return nil
}
