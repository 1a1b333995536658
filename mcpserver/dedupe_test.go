package mcpserver

import (
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
)

// TestCreateCandidateReportsOverlap checks that create_candidate names the published skill a
// new skill duplicates and advises patching it, and that an unrelated skill gets no advice.
func TestCreateCandidateReportsOverlap(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	steps := []string{"Read the CSV file with its header row.", "Trim the spaces around every cell.",
		"Drop the columns that are empty in every row.", "Write the cleaned file next to the original."}
	publishSkill(t, dir, "clean-csv", steps...)
	c := connect(t, dir)
	var out actionOut
	c.ok("create_candidate", map[string]any{"name": "csv-cleaner", "description": "Cleans CSV files.",
		"body": "## Steps\n\n- " + strings.Join(steps, "\n- ") + "\n"}, &out)
	if len(out.Overlaps) == 0 || out.Overlaps[0].Skill != "clean-csv" || !out.Overlaps[0].Duplicate {
		t.Fatalf("overlaps %+v; want clean-csv, a likely duplicate", out.Overlaps)
	}
	if !strings.Contains(out.Next, "prefer patching it") || !strings.Contains(out.Next, "clean-csv") {
		t.Fatalf("next %q; want advice to patch clean-csv", out.Next)
	}
	var other actionOut
	c.ok("create_candidate", map[string]any{"name": "image-resize", "description": "Resizes photos for the web.",
		"body": "Resize every photo to 1200 pixels wide and save it as WebP.\n"}, &other)
	if len(other.Overlaps) != 0 || strings.Contains(other.Next, "prefer patching") {
		t.Fatalf("an unrelated skill: overlaps %+v, next %q", other.Overlaps, other.Next)
	}
}

// TestCreateCandidateAgain refuses to create the candidate an open one already is, pointing at
// patch_candidate, and names the open candidate when the new one differs.
func TestCreateCandidateAgain(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	c := connect(t, dir)
	in := map[string]any{"name": "notes", "description": "Takes notes.", "body": "# Notes\n\nWrite the notes down.\n"}
	var first actionOut
	c.ok("create_candidate", in, &first)
	msg := c.fails("create_candidate", in)
	if !strings.Contains(msg, "already proposed") || !strings.Contains(msg, first.ID) || !strings.Contains(msg, "patch_candidate") {
		t.Fatalf("the same candidate again: %q; want it refused naming %s and patch_candidate", msg, first.ID)
	}
	in["body"] = "# Notes\n\nWrite the notes down, dated.\n"
	var second actionOut
	c.ok("create_candidate", in, &second)
	if !strings.Contains(second.Next, first.ID+" also open for notes") {
		t.Fatalf("another version: next %q; want it to name the open %s", second.Next, first.ID)
	}
}
