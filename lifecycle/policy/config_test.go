package policy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseConfigDefaults(t *testing.T) {
	c, err := ParseConfig([]byte("publish_branch: main\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig("main")
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestParseConfigRoundTrip(t *testing.T) {
	in := DefaultConfig("trunk")
	in.Sync.Targets = []Target{{Agent: "claude-code"}, {Dir: "vendor/skills"}}
	in.Packs = []Pack{{Name: "team", URL: "https://example.com/skills.git", Ref: "main", Path: "skills"}}
	out, err := ParseConfig(in.Marshal())
	if err != nil {
		t.Fatalf("parse of marshalled config: %v\n%s", err, in.Marshal())
	}
	if diff := cmp.Diff(in, out, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unknown top key", "publish_branch: main\ncolour: blue\n", `.skillgit.yaml:2: unknown key "colour"; known keys: `},
		{"unknown nested key", "audit:\n  fail_on: high\n  failon: low\n", `.skillgit.yaml:3: unknown key "failon" in audit`},
		{"unknown key in list item", "packs:\n  - name: a\n    url: u\n    branch: x\n", `.skillgit.yaml:4: unknown key "branch" in packs[0]`},
		{"bad mode", "mode: yolo\n", `mode "yolo" is not one of manual, assisted, autonomous`},
		{"escaping skills dir", "skills_dir: ../elsewhere\n", `skills_dir "../elsewhere" must be a clean relative path`},
		{"skills dir in .git", "skills_dir: .git/hooks\n", `may not point into .git`},
		{"absolute allow list", "audit:\n  allow: /etc/passwd\n", `audit.allow "/etc/passwd" must be a clean relative path`},
		{"bad branch", "publish_branch: 'a..b'\n", `publish_branch "a..b" is not a valid branch name`},
		{"bad fail_on", "audit:\n  fail_on: never\n", `audit.fail_on "never" is not one of low, medium, high`},
		{"zero approvals", "approvals:\n  required: -1\n", `approvals.required is -1`},
		{"duplicate pack", "packs:\n  - {name: a, url: u}\n  - {name: a, url: v}\n", `pack name "a" is used twice`},
		{"empty target", "sync:\n  targets:\n    - {}\n", `sync.targets[0]: give either an agent id or {dir: PATH}`},
		{"alias", "publish_branch: &x main\nskills_dir: *x\n", `.skillgit.yaml:2: aliases are not allowed`},
		{"not yaml", "mode: [\n", `.skillgit.yaml: `},
		{"duplicate key", "mode: manual\nmode: assisted\n", `already defined`},
		{"too big", strings.Repeat("#", MaxConfigSize+1), `larger than the`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseConfig error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestAuditSkipped(t *testing.T) {
	on := DefaultConfig("main")
	on.Audit.SkipSecurityAudit = true
	tests := []struct {
		name     string
		cfg      *Config
		env      string
		skip     bool
		warnPart string
	}{
		{"default runs", DefaultConfig("main"), "", false, ""},
		{"config switch", on, "", true, "audit.skip_security_audit: true"},
		{"env override", DefaultConfig("main"), "1", true, SkipAuditEnv + "=1"},
		{"env zero is off", DefaultConfig("main"), "0", false, ""},
		{"env false is off", DefaultConfig("main"), "false", false, ""},
		{"nil config", nil, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			skip, warn := AuditSkipped(tt.cfg, func(k string) string {
				if k == SkipAuditEnv {
					return tt.env
				}
				return ""
			})
			if skip != tt.skip || !strings.Contains(warn, tt.warnPart) || (skip && !strings.HasPrefix(warn, "warning:")) {
				t.Errorf("AuditSkipped = %v, %q; want %v with %q", skip, warn, tt.skip, tt.warnPart)
			}
		})
	}
}
