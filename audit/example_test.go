package audit

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillgit/skillgit/audit/codeflow"
)

// parseExample turns a rule example into a skill and its base version.
// Plain text is the SKILL.md of a skill; otherwise the text holds files,
// each after a header line "-- path --" or "-- path [mode] --", where mode
// is exec, symlink (the content is the target), gitlink or fifo, and a
// path prefixed with "base:" belongs to the base version.
func parseExample(text string) (head, base fstest.MapFS) {
	text = strings.ReplaceAll(text, "{{big}}", strings.Repeat("lorem ipsum dolor sit amet\n", 200000))
	head = fstest.MapFS{}
	if !strings.HasPrefix(text, "-- ") {
		head["SKILL.md"] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
		return head, nil
	}
	var name string
	var body strings.Builder
	flush := func() {
		if name == "" {
			return
		}
		target := head
		if n, ok := strings.CutPrefix(name, "base:"); ok {
			if base == nil {
				base = fstest.MapFS{}
			}
			target, name = base, n
		}
		file := &fstest.MapFile{Data: []byte(body.String()), Mode: 0o644}
		if n, mode, ok := strings.Cut(name, " ["); ok {
			name = n
			switch strings.TrimSuffix(mode, "]") {
			case "exec":
				file.Mode = 0o755
			case "symlink":
				file.Mode = fs.ModeSymlink | 0o777
				file.Data = []byte(strings.TrimSpace(body.String()))
			case "gitlink":
				file.Mode = fs.ModeIrregular
			case "fifo":
				file.Mode = fs.ModeNamedPipe | 0o644
			}
		}
		target[name] = file
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		l := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) > 6 {
			flush()
			name = l[3 : len(l)-3]
			body.Reset()
			continue
		}
		body.WriteString(line)
	}
	flush()
	return head, base
}

func scanExample(t *testing.T, text string, opts Options) *Report {
	t.Helper()
	head, base := parseExample(text)
	if base != nil {
		opts.Base = base
	}
	rep, err := Scan(head, opts)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return rep
}

func hasRule(rep *Report, id string) bool {
	for _, f := range rep.Findings {
		if f.RuleID == id {
			return true
		}
	}
	return false
}

func dump(rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "  %s %s %s:%d:%d %q decoded=%q\n", f.RuleID, f.Severity, f.File, f.Line, f.Column, f.Snippet, f.Decoded)
	}
	return b.String()
}

// TestRuleExamples runs every rule's own examples: each text that must
// fire produces a finding of the rule, each look-alike does not, and the
// keyword prefilter changes nothing.
func TestRuleExamples(t *testing.T) {
	for _, r := range Rules() {
		t.Run(r.ID, func(t *testing.T) {
			def := rule(r.ID)
			if len(def.fire) < 2 || len(def.pass) < 2 {
				t.Fatalf("%s has %d firing and %d benign examples; want at least 2 of each", r.ID, len(def.fire), len(def.pass))
			}
			for i, ex := range def.fire {
				rep := scanExample(t, ex, Options{})
				if def.parsed && !codeflow.Available() {
					if hasRule(rep, r.ID) {
						t.Errorf("fire[%d]: %s found without the code parsers, which it needs", i, r.ID)
					}
					continue // this build reads code as text: the report says so (TestParsersNote)
				}
				if !hasRule(rep, r.ID) {
					t.Errorf("fire[%d] %q: no %s finding; got:\n%s", i, bounded(ex, 120), r.ID, dump(rep))
				}
				checkPrefilterParity(t, ex, rep)
			}
			for i, ex := range def.pass {
				rep := scanExample(t, ex, Options{})
				if hasRule(rep, r.ID) {
					t.Errorf("pass[%d] %q: unexpected %s finding:\n%s", i, bounded(ex, 120), r.ID, dump(rep))
				}
				checkPrefilterParity(t, ex, rep)
			}
		})
	}
}

func checkPrefilterParity(t *testing.T, ex string, want *Report) {
	t.Helper()
	if strings.Contains(ex, "{{big}}") {
		return // every pattern over five megabytes: seconds, and nothing to compare
	}
	got := scanExample(t, ex, Options{noPrefilter: true})
	if dump(got) != dump(want) {
		t.Errorf("%q: findings differ without the prefilter:\nwith:\n%swithout:\n%s", bounded(ex, 80), dump(want), dump(got))
	}
}

// TestRuleMetadata checks what reporters and documentation rely on.
func TestRuleMetadata(t *testing.T) {
	categories := map[string]bool{"structure": true, "hidden": true, "injection": true, "credentials": true,
		"exfiltration": true, "secrets": true, "execution": true, "skillgit": true, "diff": true, "combination": true}
	idRe := regexp.MustCompile(`^SG-[A-Z]+-\d{3}$`)
	rules := Rules()
	for i, r := range rules {
		switch {
		case !idRe.MatchString(r.ID):
			t.Errorf("%s: malformed id", r.ID)
		case i > 0 && rules[i-1].ID >= r.ID:
			t.Errorf("%s: Rules() not sorted or id repeated", r.ID)
		case !categories[r.Category]:
			t.Errorf("%s: unknown category %q", r.ID, r.Category)
		case r.Severity < Info || r.Severity > Critical:
			t.Errorf("%s: severity %v", r.ID, r.Severity)
		case r.Title == "" || len(r.Help) < 40 || strings.HasSuffix(r.Title, "."):
			t.Errorf("%s: title %q or help %q too thin", r.ID, r.Title, r.Help)
		case r.message != r.Title+": "+r.Help:
			t.Errorf("%s: message %q is not its title and help", r.ID, r.message)
		}
	}
	if len(rules) < 60 {
		t.Errorf("%d rules", len(rules))
	}
}
