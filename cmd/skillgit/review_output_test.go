package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/packs"
)

const sampleDiff = `diff --git a/skills/a/SKILL.md b/skills/a/SKILL.md
index 1111111..2222222 100644
--- a/skills/a/SKILL.md
+++ b/skills/a/SKILL.md
@@ -1,3 +1,3 @@
 name: a
--- not a header
+++ not a header either
-old
+new
diff --git a/skills/a/logo.png b/skills/a/logo.png
new file mode 100644
index 0000000..3333333
Binary files /dev/null and b/skills/a/logo.png differ
diff --git a/skills/a/my notes.md b/skills/a/my notes.md
deleted file mode 100644
--- a/skills/a/my notes.md
+++ /dev/null
@@ -1,2 +0,0 @@
-one
-two
`

func TestReviewFiles(t *testing.T) {
	rv := &lifecycle.Review{Diff: sampleDiff, Files: []lifecycle.FileChange{
		{Path: "skills/a/SKILL.md", Status: "modified"},
		{Path: "skills/a/logo.png", Status: "added"},
		{Path: "skills/a/my notes.md", Status: "deleted"},
	}}
	want := []reviewFile{
		{Path: "skills/a/SKILL.md", Status: "modified", Added: 2, Removed: 2},
		{Path: "skills/a/logo.png", Status: "added", Binary: true},
		{Path: "skills/a/my notes.md", Status: "deleted", Removed: 2},
	}
	if diff := cmp.Diff(want, reviewFiles(rv)); diff != "" {
		t.Errorf("reviewFiles (-want +got):\n%s", diff)
	}
}

// bigReview is a review whose diff has lines diff lines and whose audit has findings
// findings.
func bigReview(lines, findings int) *lifecycle.Review {
	var d strings.Builder
	d.WriteString("diff --git a/skills/big/SKILL.md b/skills/big/SKILL.md\n--- /dev/null\n+++ b/skills/big/SKILL.md\n@@ -0,0 +1 @@\n")
	for i := range lines {
		fmt.Fprintf(&d, "+line %d of a skill that came from a pack\n", i)
	}
	rep := &audit.Report{Risk: audit.RiskHigh}
	for i := range findings {
		rep.Findings = append(rep.Findings, audit.Finding{RuleID: "SG-EXE-005", Severity: audit.High, File: fmt.Sprintf("docs/f%d.md", i),
			Line: i + 1, Column: 1, Message: "remote script piped into an interpreter", Snippet: "curl x | sh",
			Fingerprint: fmt.Sprintf("%032x", i)})
	}
	c := &lifecycle.Candidate{ID: "big-0001", Skill: "big", Change: lifecycle.ChangeCreate,
		History: []lifecycle.Event{{Commit: "0123456789", Action: "propose", When: time.Unix(0, 0).UTC(), Subject: "propose: big"}}}
	return &lifecycle.Review{Candidate: c, Scope: &lifecycle.Scope{}, Diff: d.String(),
		Files:   []lifecycle.FileChange{{Path: "skills/big/SKILL.md", Status: "added"}},
		Reports: []audit.SkillReport{{Name: "big", Path: "skills/big", Report: rep}},
		Risk:    audit.RiskHigh, Verdict: audit.VerdictBlocked, FailOn: audit.RiskHigh}
}

func reviewMarkdown(t *testing.T, rv *lifecycle.Review) string {
	t.Helper()
	var b strings.Builder
	if err := writeReviewMarkdown(&b, rv, 1, audit.WriteOptions{FailOn: rv.FailOn}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// inOrder fails t unless out holds each of parts, in that order.
func inOrder(t *testing.T, out string, parts []string) {
	t.Helper()
	at := 0
	for _, s := range parts {
		i := strings.Index(out[at:], s)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", s, out)
		}
		at += i
	}
}

// TestReviewMarkdownOrder checks that the verdict comes first, then the findings, then the
// diff folded in a <details> block.
func TestReviewMarkdownOrder(t *testing.T) {
	out := reviewMarkdown(t, bigReview(3, 1))
	if !strings.HasPrefix(out, "**BLOCKED**") {
		t.Errorf("comment does not start with the verdict:\n%s", out)
	}
	order := []string{"### Audit", "SG-EXE-005", "### Changes", "<details><summary>Diff: 1 file(s), +3 −0</summary>",
		"```diff\n", "+line 2 of", "```\n\n</details>\n", "### History", reviewMarker}
	inOrder(t, out, order)
	if strings.Contains(out, "cut") {
		t.Errorf("a small review says something was cut:\n%s", out)
	}
}

// TestReviewTextOrder checks that the text review leads with the risk, the findings, the
// audit's summary and the history, and ends with the files and their diff.
func TestReviewTextOrder(t *testing.T) {
	var b strings.Builder
	if err := writeReviewText(&b, bigReview(3, 1), 1, audit.WriteOptions{FailOn: audit.RiskHigh}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	order := []string{"candidate:  big-0001", "risk:       high, BLOCKED", "approvals:  0 of 1", "SG-EXE-005",
		"Overall risk high", "history:\n", "propose: big", "files:\n", "skills/big/SKILL.md", "diff --git ", "+line 2 of"}
	inOrder(t, out, order)
}

func TestReviewMarkdownLimit(t *testing.T) {
	tests := []struct {
		name                   string
		lines, findings, files int
		want, notWant          []string
	}{
		{"diff cut", 25000, 1, 1, []string{"The diff is cut", "`skillgit review big-0001` shows all of it", "<details>", "SG-EXE-005"}, nil},
		{"diff left out", 300, 2000, 1, []string{"The diff (304 lines) is left out", "SG-EXE-005"}, []string{"<details>"}},
		{"findings cut", 300, 2000, 400, []string{"The diff (304 lines) is left out", "The findings are cut",
			"`skillgit review big-0001 --findings`", "- and 100 more files"}, []string{"<details>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rv := bigReview(tc.lines, tc.findings)
			for i := 1; i < tc.files; i++ {
				rv.Files = append(rv.Files, lifecycle.FileChange{Path: fmt.Sprintf("skills/big/docs/f%d.md", i), Status: "added"})
			}
			out := reviewMarkdown(t, rv)
			if len(out) > maxComment {
				t.Errorf("comment is %d bytes, over %d", len(out), maxComment)
			}
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("comment lacks %q", s)
				}
			}
			for _, s := range tc.notWant {
				if strings.Contains(out, s) {
					t.Errorf("comment has %q", s)
				}
			}
			if strings.Count(out, "```diff\n") != strings.Count(out, "\n```\n") {
				t.Errorf("a fence is left open")
			}
			if !strings.HasSuffix(out, reviewMarker) || !strings.HasPrefix(out, "**BLOCKED**") {
				t.Errorf("the verdict or the marker was cut")
			}
		})
	}
}

func TestPrintLogHeader(t *testing.T) {
	var b strings.Builder
	es := []logEntry{{Commit: "0123456789abcdef", Action: "publish", Skill: "pdf", Candidate: "pdf-0001", Who: "Grace",
		Risk: "low", When: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), ApprovedBy: []string{"Grace Hopper <grace@example.com>", "Alan"}}}
	if err := printLog(&b, es); err != nil {
		t.Fatal(err)
	}
	want := "COMMIT   WHEN              ACTION   SKILL  CANDIDATE  WHO    RISK  APPROVED BY\n" +
		"0123456  2026-01-02 03:04  publish  pdf    pdf-0001   Grace  low   Grace Hopper <grace@example.com>, Alan\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("printLog (-want +got):\n%s", diff)
	}
}

func TestPackOutputAligned(t *testing.T) {
	var b strings.Builder
	up := &packs.Result{Pack: "demo", Ref: "refs/heads/main", Fetched: "abcdef0123", Candidates: []*lifecycle.Result{
		{ID: "greet-1a2b", Change: "create", Skill: "greet", Risk: "low"},
		{ID: "tidy-everything-3c4d", Change: "patch", Skill: "tidy-everything", Risk: "medium"},
	}}
	if err := writePackUpdate(&b, up); err != nil {
		t.Fatal(err)
	}
	want := "demo: main at abcdef0: 2 candidate(s), 0 unchanged, 0 skipped\n" +
		"  greet-1a2b            create  greet            risk low\n" +
		"  tidy-everything-3c4d  patch   tidy-everything  risk medium\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("writePackUpdate (-want +got):\n%s", diff)
	}
	b.Reset()
	if err := writePackList(&b, []packs.Status{{Name: "demo", URL: "https://example.com/p.git", Commit: "abcdef0123", Skills: []string{"a"}}}); err != nil {
		t.Fatal(err)
	}
	want = "NAME  URL                        REF   PINNED AT  SKILLS\n" +
		"demo  https://example.com/p.git  HEAD  abcdef0    1\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("writePackList (-want +got):\n%s", diff)
	}
}
