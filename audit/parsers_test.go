package audit

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/audit/codeflow"
)

// TestParsersNote checks that every report says whether Python and
// JavaScript were read as programs: a build without cgo must say that it
// fell back to the text rules, in JSON and in text, and a build with cgo
// must not.
func TestParsersNote(t *testing.T) {
	rep := scanExample(t, "-- SKILL.md --\n"+front+"Run scripts/a.py.\n-- scripts/a.py --\nprint(1)\n", Options{})
	skills := []SkillReport{{Name: "demo", Path: "skills/demo", Report: rep}}
	var js, text bytes.Buffer
	if err := WriteJSON(&js, skills, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&text, skills, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Parsers Parsers `json:"parsers"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	want := codeflow.Available()
	if !out.Parsers.Shell || out.Parsers.Python != want || out.Parsers.JavaScript != want {
		t.Errorf("parsers %+v; want shell true and python, javascript %v", out.Parsers, want)
	}
	noted := strings.Contains(text.String(), "built without cgo")
	if noted == want || (out.Parsers.Note != "") == want {
		t.Errorf("cgo %v: text note %v, JSON note %q; the note belongs only to a build without parsers", want, noted, out.Parsers.Note)
	}
}
