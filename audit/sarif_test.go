package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaFile is where scripts/test.sh unpacks the SARIF 2.1.0 JSON
// schema that the npm package @microsoft/jest-sarif ships; the
// SKILLGIT_SARIF_SCHEMA environment variable names another copy.
const sarifSchemaFile = "skillgit-ci/jest-sarif/package/lib/schemas/sarif-2.1.0-rtm.5.json"

const sarifSchemaInstall = `sarif_dir="${XDG_CACHE_HOME:-$HOME/.cache}/skillgit-ci/jest-sarif"; mkdir -p "$sarif_dir" && ` +
	`npm pack --silent --pack-destination "$sarif_dir" @microsoft/jest-sarif@1.0.0-beta.0 && ` +
	`tar -xzf "$sarif_dir/microsoft-jest-sarif-1.0.0-beta.0.tgz" -C "$sarif_dir"`

func loadSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	file := os.Getenv("SKILLGIT_SARIF_SCHEMA")
	if file == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatalf("no cache folder to find the SARIF schema in (%v); set SKILLGIT_SARIF_SCHEMA", err)
		}
		file = filepath.Join(cache, sarifSchemaFile)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("SARIF 2.1.0 schema: %v; scripts/test.sh installs it, or run:\n%s", err, sarifSchemaInstall)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("SARIF schema %s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://skillgit.invalid/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("SARIF schema %s: %v", file, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("SARIF schema %s: %v", file, err)
	}
	return sch
}

// scannedSkills scans a few malicious fixtures, so that the schema also
// sees what the real engine reports.
func scannedSkills(t *testing.T) []SkillReport {
	t.Helper()
	var skills []SkillReport
	for _, name := range []string{"tag-smuggling", "hardcoded-aws-key", "html-comment-instructions", "split-exfil-files", "svg-script"} {
		rep, err := Scan(os.DirFS(filepath.Join("testdata", "malicious", name)), Options{})
		if err != nil {
			t.Fatalf("Scan %s: %v", name, err)
		}
		skills = append(skills, SkillReport{Name: name, Path: "skills/" + name, Report: rep})
	}
	return skills
}

func TestSARIFSchema(t *testing.T) {
	sch := loadSARIFSchema(t)
	runs := map[string][]SkillReport{
		"golden": goldenSkills(), "single": singleSkill(), "empty": nil,
		"scanned": scannedSkills(t), "unknown rule": {skillWith(finding(Medium, ""))},
		"absolute path": {{Name: "x", Path: "/srv/skills/x", Report: goldenSkills()[0].Report}},
	}
	for name, skills := range runs {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, skills, WriteOptions{FailOn: RiskHigh, Version: "1.2.0", Title: "main..HEAD"}); err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(&buf)
			if err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("output does not follow the SARIF 2.1.0 schema: %v", err)
			}
		})
	}
}

// TestSARIFForCodeScanning checks what GitHub code scanning reads beyond
// the schema: security-severity and help on every rule, indexes that
// point at the right rule, fingerprints, and locations from the
// repository root.
func TestSARIFForCodeScanning(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, goldenSkills(), WriteOptions{FailOn: RiskHigh}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || log.Version != "2.1.0" || log.Schema == "" {
		t.Fatalf("want one run of version 2.1.0 with $schema, got %d runs, version %q", len(log.Runs), log.Version)
	}
	run := log.Runs[0]
	for _, r := range run.Tool.Driver.Rules {
		if r.Properties.SecuritySeverity == "" || r.Help.Text == "" || r.Help.Markdown == "" || r.ShortDescription.Text == "" {
			t.Errorf("rule %s lacks security-severity, help or description: %+v", r.ID, r)
		}
	}
	type place struct {
		Rule, URI string
		Line      int
		Fp        string
	}
	var got []place
	for _, res := range run.Results {
		if rule := run.Tool.Driver.Rules[res.RuleIndex]; rule.ID != res.RuleID {
			t.Errorf("result %s points at rule %s", res.RuleID, rule.ID)
		}
		p := place{Rule: res.RuleID, URI: res.Locations[0].PhysicalLocation.ArtifactLocation.URI, Fp: res.PartialFingerprints[sarifFingerprint]}
		if reg := res.Locations[0].PhysicalLocation.Region; reg != nil {
			p.Line = reg.StartLine
		}
		got = append(got, p)
	}
	want := []place{
		{"SG-HID-001", "skills/pdf-tools/SKILL.md", 3, "0a1b2c3d4e5f60718293a4b5c6d7e8f9"},
		{"SG-HID-005", "skills/pdf-tools/SKILL.md", 9, "1b2c3d4e5f60718293a4b5c6d7e8f90a"},
		{"SG-SEC-001", "skills/pdf-tools/references/setup.md", 12, "2c3d4e5f60718293a4b5c6d7e8f90a1b"},
		{"SG-TREE-001", "skills/pdf-tools/scripts/helper", 0, "3d4e5f60718293a4b5c6d7e8f90a1b2c"},
		{"SG-EXE-005", "skills/pdf-tools/scripts/install.sh", 7, "4e5f60718293a4b5c6d7e8f90a1b2c3d"},
		{"SG-TREE-006", "skills/review/notes-helper/scripts/sum.py", 0, "5f60718293a4b5c6d7e8f90a1b2c3d4e"},
		{"SG-LINK-003", "skills/review/notes-helper/SKILL.md", 4, "60718293a4b5c6d7e8f90a1b2c3d4e5f"},
		{"SG-TREE-009", "skills/odd%20names%20%231/docs/%1B%5B2Jcl%E2%80%8Bear%3F.md", 1, "718293a4b5c6d7e8f90a1b2c3d4e5f60"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestSARIFArtifact(t *testing.T) {
	tests := []struct {
		skill, file string
		want        sarifArtifact
	}{
		{"skills/a", "SKILL.md", sarifArtifact{URI: "skills/a/SKILL.md", URIBaseID: sarifSrcRoot}},
		{"skills/a", ".", sarifArtifact{URI: "skills/a", URIBaseID: sarifSrcRoot}},
		{".", "SKILL.md", sarifArtifact{URI: "SKILL.md", URIBaseID: sarifSrcRoot}},
		{"", "scripts/x.sh", sarifArtifact{URI: "scripts/x.sh", URIBaseID: sarifSrcRoot}},
		{"a:b", "x", sarifArtifact{URI: "./a:b/x", URIBaseID: sarifSrcRoot}},
		{"skills/a", "r/é #?.md", sarifArtifact{URI: "skills/a/r/%C3%A9%20%23%3F.md", URIBaseID: sarifSrcRoot}},
		{"/srv/skills/a", "SKILL.md", sarifArtifact{URI: "file:///srv/skills/a/SKILL.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.skill+"|"+tt.file, func(t *testing.T) {
			if got := sarifArtifactOf(tt.skill, tt.file); got != tt.want {
				t.Errorf("sarifArtifactOf(%q, %q) = %+v, want %+v", tt.skill, tt.file, got, tt.want)
			}
		})
	}
}

func TestSARIFDetails(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"message brackets", sarifMessage(`see [x](https://e.example) \ ok`), `see \[x\](https://e.example) \\ ok`},
		{"rule name", ruleName("download, make executable and run"), "DownloadMakeExecutableAndRun"},
		{"rule name acronym", ruleName("AWS access key"), "AWSAccessKey"},
		{"unknown rule", sarifRuleOf("SG-OLD-999", Medium).DefaultConfiguration.Level, "warning"},
		{"critical", securitySeverity(Critical), "9.5"},
		{"info", securitySeverity(Info), "1.0"},
		{"low level", sarifLevel(Low), "note"},
		{"semver", sarifDriverOf("v1.4.0-rc.1", nil).SemanticVersion, "1.4.0-rc.1"},
		{"not semver", sarifDriverOf("(devel)", nil).SemanticVersion, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	if !strings.Contains(sarifRuleOf("SG-OLD-999", Medium).Help.Text, "SG-OLD-999") {
		t.Error("help of an unknown rule does not name it")
	}
}

// TestSARIFSchemaRejects makes sure the schema check has teeth: logs
// broken in ways a careless writer might break them must fail it.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := loadSARIFSchema(t)
	breakers := map[string]func(log map[string]any){
		"level":   func(log map[string]any) { firstResult(log)["level"] = "fatal" },
		"message": func(log map[string]any) { delete(firstResult(log), "message") },
		"line 0":  func(log map[string]any) { firstRegion(log)["startLine"] = 0 },
		"version": func(log map[string]any) { log["version"] = "2.0.0" },
		"unknown": func(log map[string]any) { firstResult(log)["severity"] = "high" },
		"kind":    func(log map[string]any) { firstResult(log)["suppressions"] = []any{map[string]any{"kind": "inline"}} },
		"tool name": func(log map[string]any) {
			delete(firstRun(log)["tool"].(map[string]any)["driver"].(map[string]any), "name")
		},
	}
	for name, breakIt := range breakers {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, goldenSkills(), WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			var log map[string]any
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			breakIt(log)
			data, _ := json.Marshal(log)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if sch.Validate(inst) == nil {
				t.Error("a broken log passed the schema")
			}
		})
	}
}

func firstRun(log map[string]any) map[string]any {
	return log["runs"].([]any)[0].(map[string]any)
}

func firstResult(log map[string]any) map[string]any {
	return firstRun(log)["results"].([]any)[0].(map[string]any)
}

func firstRegion(log map[string]any) map[string]any {
	loc := firstResult(log)["locations"].([]any)[0].(map[string]any)
	return loc["physicalLocation"].(map[string]any)["region"].(map[string]any)
}
