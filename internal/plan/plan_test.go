package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNext(t *testing.T) {
	tests := []struct {
		name string
		plan string
		want Task
		ok   bool
	}{
		{"first open", "# Build\n- [x] parse\n- [ ] match $pdf-forms\n- [ ] print\n",
			Task{Text: "match $pdf-forms", Line: 3, Heading: "Build"}, true},
		{"nested", "## Work\n- [x] outer\n  - [X] inner done\n    * [ ] deep task\n",
			Task{Text: "deep task", Line: 4, Heading: "Work", indent: 4}, true},
		{"open parent, open child", "- [ ] parent\n  - [x] done child\n  - [ ] open child\n    1. [ ] grandchild\n- [ ] sibling\n",
			Task{Text: "grandchild", Line: 4, indent: 4}, true},
		{"open parent, children done", "- [ ] parent\n\t- [x] child\n- [ ] sibling\n",
			Task{Text: "parent", Line: 1}, true},
		{"crlf", "# Plan\r\n- [x] one\r\n- [ ] two\r\n",
			Task{Text: "two", Line: 3, Heading: "Plan"}, true},
		{"all done", "# Plan\n- [x] one\n* [X] two\n1. [x] three\n", Task{}, false},
		{"numbered dot", "1. [x] one\n2. [ ] two\n", Task{Text: "two", Line: 2}, true},
		{"numbered paren", "1) [ ] first\n", Task{Text: "first", Line: 1}, true},
		{"plus bullet", "+ [ ] plus\n", Task{Text: "plus", Line: 1}, true},
		{"question mark", "- [ ]? maybe\n- [ ] sure\n", Task{Text: "sure", Line: 2}, true},
		{"verification", "# Verification\n- [ ] check it\n# Next\n- [ ] build it\n",
			Task{Text: "build it", Line: 4, Heading: "Next"}, true},
		{"manual qa any case", "### MANUAL qa Steps\n- [ ] click\n## Build\n- [ ] code\n",
			Task{Text: "code", Line: 4, Heading: "Build"}, true},
		{"subheading stays skipped", "## Verification\n### Unit\n- [ ] run\n## Tasks\n- [ ] do\n",
			Task{Text: "do", Line: 5, Heading: "Tasks"}, true},
		{"only verification open", "# Build\n- [x] a\n## manual QA\n- [ ] look\n", Task{}, false},
		{"code fence", "```md\n- [ ] not a task\n```\n~~~\n- [ ] nor this\n~~~\n- [ ] real\n",
			Task{Text: "real", Line: 7}, true},
		{"heading in fence", "# Build\n```\n# Verification\n```\n- [ ] real\n",
			Task{Text: "real", Line: 5, Heading: "Build"}, true},
		{"not a checkbox", "- [ ](link)\n- []\n- [ ]\n-[ ] tight\n- [ ] yes\n", Task{Text: "yes", Line: 5}, true},
		{"closed heading", "## Build ##\n- [ ] x\n", Task{Text: "x", Line: 2, Heading: "Build"}, true},
		{"empty", "", Task{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Next([]byte(tt.plan))
			if ok != tt.ok {
				t.Fatalf("Next ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(Task{})); diff != "" {
				t.Errorf("Next (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsVerification(t *testing.T) {
	for h, want := range map[string]bool{
		"Verification": true, "verification steps": true, "Manual QA": true, "manual qa steps": true,
		"MANUAL-QA": true, "Preverification": false, "Manual": false, "QA": false, "Build": false,
	} {
		if got := isVerification(h); got != want {
			t.Errorf("isVerification(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "plan.md")
	if err := os.WriteFile(small, []byte("- [ ] a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(small); err != nil || string(data) != "- [ ] a\n" {
		t.Fatalf("Read = %q, %v", data, err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", MaxSize+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "big.md") || !strings.Contains(err.Error(), "4 MiB") {
		t.Fatalf("Read(big) error = %v", err)
	}
	for _, p := range []string{filepath.Join(dir, "missing.md"), dir} {
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("Read(%s) error = %v", p, err)
		}
	}
}

func FuzzTasks(f *testing.F) {
	f.Add([]byte("# V\n- [ ] a\n```\n- [x] b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, task := range Tasks(data) {
			if task.Line < 1 || task.Text == "" {
				t.Fatalf("bad task %+v", task)
			}
		}
	})
}
