package audit

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decodeJSONReport(t *testing.T, skills []SkillReport) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, skills, WriteOptions{FailOn: RiskHigh}); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("output is not a JSON object: %v\n%s", err, buf.String())
	}
	return v
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestJSONShape pins the field names scripts rely on: they may be added
// to, never renamed.
func TestJSONShape(t *testing.T) {
	finding := []string{"column", "count", "decoded", "file", "fingerprint", "line", "message", "new", "rule_id",
		"severity", "snippet", "suppressed"}
	tests := []struct {
		name     string
		skills   []SkillReport
		top      []string
		findings []any
	}{
		{"one clean skill", []SkillReport{skillWith()},
			[]string{"bytes", "fail_on", "files", "findings", "name", "parsers", "path", "risk", "ruleset", "verdict"}, []any{}},
		{"several skills", goldenSkills(),
			[]string{"fail_on", "findings", "parsers", "risk", "ruleset", "skills", "verdict"}, nil},
		{"no skills", nil,
			[]string{"fail_on", "findings", "parsers", "risk", "ruleset", "skills", "verdict"}, []any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := decodeJSONReport(t, tt.skills)
			if diff := cmp.Diff(tt.top, keysOf(v)); diff != "" {
				t.Errorf("top-level keys (-want +got):\n%s", diff)
			}
			if tt.findings != nil {
				if diff := cmp.Diff(tt.findings, v["findings"]); diff != "" {
					t.Errorf("findings (-want +got):\n%s", diff)
				}
			}
		})
	}
	v := decodeJSONReport(t, goldenSkills())
	first := v["findings"].([]any)[0].(map[string]any)
	want := append(slices.Clone(finding), "skill")
	slices.Sort(want)
	if diff := cmp.Diff(want, keysOf(first)); diff != "" {
		t.Errorf("keys of a finding of several skills (-want +got):\n%s", diff)
	}
	skill := v["skills"].([]any)[0].(map[string]any)
	if diff := cmp.Diff([]string{"base", "bytes", "files", "findings", "name", "path", "risk", "verdict"}, keysOf(skill)); diff != "" {
		t.Errorf("keys of a skill (-want +got):\n%s", diff)
	}
	if n := len(v["findings"].([]any)); n != 8 {
		t.Errorf("several skills list %d findings, want all 8", n)
	}
}
