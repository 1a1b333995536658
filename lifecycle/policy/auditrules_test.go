package policy

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestAuditRulesArePolicy(t *testing.T) {
	for _, p := range DefaultConfig("main").PolicyPaths() {
		if p == AuditRulesFile || strings.HasPrefix(AuditRulesFile, p+"/") {
			return
		}
	}
	t.Errorf("%s is not under any of the policy paths", AuditRulesFile)
}

func TestAuditRulesProblems(t *testing.T) {
	good := "rules:\n  - id: TEAM-A-001\n    severity: low\n    title: T\n    help: H\n    pattern: ab\n    examples: {fire: [ab]}\n"
	bad := good + "  - id: TEAM-A-002\n    severity: low\n    title: T\n    help: H\n    pattern: 'a('\n    examples: {fire: [a]}\n" +
		"  - id: TEAM-A-003\n    severity: low\n    title: T\n    help: H\n    pattern: cd\n    examples: {pass: [ab]}\n"
	tests := []struct {
		name  string
		files fstest.MapFS
		want  []string
	}{
		{"absent", fstest.MapFS{}, nil},
		{"valid", fstest.MapFS{AuditRulesFile: {Data: []byte(good)}}, nil},
		{"two refused", fstest.MapFS{AuditRulesFile: {Data: []byte(bad)}}, []string{"TEAM-A-002 (line 8): pattern does not compile", "TEAM-A-003 (line 14): examples.fire is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := AuditRulesProblems(tt.files)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != len(tt.want) {
				t.Fatalf("problems %v; want %d", ps, len(tt.want))
			}
			for i, p := range ps {
				if p.File != AuditRulesFile || !strings.Contains(p.Message, tt.want[i]) {
					t.Errorf("problem %d = %+v; want one of %s with %q", i, p, AuditRulesFile, tt.want[i])
				}
			}
		})
	}
}
