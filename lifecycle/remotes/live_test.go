package remotes

import (
	"bytes"
	"testing"
)

// TestLiveLines checks what a server says is passed on line by line after "remote: ", a line
// rewritten with a carriage return kept as such, whatever the pieces it arrives in, with its
// control characters replaced so that the server cannot drive the terminal.
func TestLiveLines(t *testing.T) {
	var out bytes.Buffer
	w := liveLines(&out)
	for _, piece := range []string{"audit", "ing: 1/2\rauditing: 2/2, done.\n\x1b[2Jgone", "\n\n", "unfinished"} {
		if _, err := w.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	want := "remote: auditing: 1/2\rremote: auditing: 2/2, done.\nremote: \uFFFD[2Jgone\n"
	if got := out.String(); got != want {
		t.Errorf("passed on %q, want %q", got, want)
	}
	if liveLines(nil) != nil {
		t.Error("liveLines(nil) is not nil")
	}
}
