package hooks

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgress checks the counter line: nothing below ProgressMin skills; above it a first
// line with none done, rewritten in place, and a last one that ends with "done." and a newline.
func TestProgress(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, "skillgit: ")
	for done := 0; done <= ProgressMin-1; done++ {
		p.Update(done, ProgressMin-1)
	}
	if out.Len() > 0 {
		t.Fatalf("an audit of %d skills wrote %q", ProgressMin-1, out.String())
	}
	for done := 0; done <= 12; done++ {
		p.Update(done, 12)
	}
	got := out.String()
	if !strings.HasPrefix(got, "skillgit: auditing skills: 0/12\r") || !strings.HasSuffix(got, "\rskillgit: auditing skills: 12/12, done.\n") {
		t.Errorf("progress of 12 skills: %q", got)
	}
	if strings.Count(got, "\n") != 1 {
		t.Errorf("progress of 12 skills ends more than one line: %q", got)
	}
}
