package targetdir

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
)

func instructionsBlock(t *testing.T, names ...string) []byte {
	t.Helper()
	var entries []catalog.PromptEntry
	for _, n := range names {
		entries = append(entries, catalog.PromptEntry{Name: n, Description: "does " + n, Location: ".claude/skills/" + n + "/SKILL.md"})
	}
	var b bytes.Buffer
	if err := WriteInstructions(&b, entries); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSpliceInstructionsAppendsAndReplaces(t *testing.T) {
	doc := []byte("# Project rules\n\nUse tabs.")
	first, err := SpliceInstructions(doc, instructionsBlock(t, "pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(first, []byte("# Project rules\n\nUse tabs.\n\n"+InstructionsStart)) {
		t.Fatalf("the block is not appended after a blank line:\n%s", first)
	}
	// The user writes below the block; a second splice keeps it and swaps the list.
	edited := append(append([]byte{}, first...), []byte("\n## Notes\nkeep me <!-- x -->\n")...)
	second, err := SpliceInstructions(edited, instructionsBlock(t, "docx", "xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(second)
	if strings.Contains(s, "<name>\npdf\n</name>") || !strings.Contains(s, "<name>\nxlsx\n</name>") {
		t.Fatalf("the list was not replaced:\n%s", s)
	}
	if !strings.HasPrefix(s, "# Project rules\n\nUse tabs.\n\n") || !strings.HasSuffix(s, "\n## Notes\nkeep me <!-- x -->\n") {
		t.Fatalf("text outside the markers changed:\n%s", s)
	}
	again, err := SpliceInstructions(second, instructionsBlock(t, "docx", "xlsx"))
	if err != nil || !bytes.Equal(again, second) {
		t.Fatalf("a splice of the same list changed the file (err %v):\n%s", err, again)
	}
}

func TestSpliceInstructionsKeepsForeignWrapper(t *testing.T) {
	// Another loader wraps its markers in a section of its own; only the marked part is ours.
	doc := "intro\n<skills_system priority=\"1\">\n\n## Available Skills\n\n" + InstructionsStart +
		"\nold list\n" + InstructionsEnd + "\n\n</skills_system>\nafter\n"
	out, err := SpliceInstructions([]byte(doc), instructionsBlock(t, "pdf"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "old list") || !strings.HasPrefix(s, "intro\n<skills_system priority=\"1\">\n\n## Available Skills\n\n"+InstructionsStart) ||
		!strings.HasSuffix(s, InstructionsEnd+"\n\n</skills_system>\nafter\n") {
		t.Fatalf("splice into a foreign wrapper:\n%s", s)
	}
}

func TestSpliceInstructionsRefusesBrokenMarkers(t *testing.T) {
	for name, doc := range map[string]string{
		"start only":   "a\n" + InstructionsStart + "\nb\n",
		"end only":     "a\n" + InstructionsEnd + "\n",
		"reversed":     InstructionsEnd + "\nx\n" + InstructionsStart + "\n",
		"two blocks":   InstructionsStart + InstructionsEnd + InstructionsStart + InstructionsEnd,
		"extra starts": InstructionsStart + InstructionsStart + InstructionsEnd,
	} {
		if _, err := SpliceInstructions([]byte(doc), instructionsBlock(t, "pdf")); err == nil {
			t.Errorf("%s: a file with broken markers was spliced", name)
		}
	}
}

func TestSpliceInstructionsEmptyFile(t *testing.T) {
	block := instructionsBlock(t)
	out, err := SpliceInstructions(nil, block)
	if err != nil || !bytes.Equal(out, block) {
		t.Fatalf("empty file: %v\n%s", err, out)
	}
}
