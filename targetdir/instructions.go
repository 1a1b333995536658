package targetdir

import (
	"bytes"
	"fmt"
	"io"

	"github.com/skillgit/skillgit/catalog"
)

// The markers around the block of available skills in an agent instructions file such as
// AGENTS.md or CLAUDE.md. They are the ones other skill loaders write, so a file kept by
// either tool keeps one block.
const (
	InstructionsStart = "<!-- SKILLS_TABLE_START -->"
	InstructionsEnd   = "<!-- SKILLS_TABLE_END -->"
)

// instructionsUsage tells an agent that reads the file how to use the list below it.
const instructionsUsage = `<usage>
The skills below are installed in this project. When a task matches a skill's description,
read the SKILL.md at its location before you start, and follow it. Paths inside a skill are
relative to its folder.
</usage>
`

// WriteInstructions writes the block that sync keeps in an agent instructions file: the
// markers, a short usage note and the <available_skills> list of entries.
func WriteInstructions(w io.Writer, entries []catalog.PromptEntry) error {
	var b bytes.Buffer
	b.WriteString(InstructionsStart + "\n" + instructionsUsage + "\n")
	if err := catalog.WritePrompt(&b, entries); err != nil {
		return err
	}
	b.WriteString(InstructionsEnd + "\n")
	_, err := w.Write(b.Bytes())
	return err
}

// SpliceInstructions returns doc with its marked block replaced by block, which must start
// with InstructionsStart and end with InstructionsEnd and a newline. Every byte outside the
// markers is kept. A doc without markers gets the block appended after a blank line. A doc
// whose markers are unpaired, out of order or repeated is refused: guessing which text is
// ours could delete the user's.
func SpliceInstructions(doc, block []byte) ([]byte, error) {
	start, end, err := instructionsBounds(doc)
	if err != nil {
		return nil, err
	}
	if start < 0 {
		return appendBlock(doc, block), nil
	}
	out := make([]byte, 0, len(doc)+len(block))
	out = append(out, doc[:start]...)
	out = append(out, bytes.TrimSuffix(block, []byte("\n"))...)
	return append(out, doc[end:]...), nil
}

// instructionsBounds finds the block: start is the offset of the start marker and end the
// offset just past the end marker; both are -1 when the doc has neither.
func instructionsBounds(doc []byte) (start, end int, err error) {
	ns := bytes.Count(doc, []byte(InstructionsStart))
	ne := bytes.Count(doc, []byte(InstructionsEnd))
	switch {
	case ns == 0 && ne == 0:
		return -1, -1, nil
	case ns != 1 || ne != 1:
		return 0, 0, fmt.Errorf("the file holds %d %s and %d %s markers; keep one pair, or remove both and run again", ns, InstructionsStart, ne, InstructionsEnd)
	}
	start = bytes.Index(doc, []byte(InstructionsStart))
	e := bytes.Index(doc, []byte(InstructionsEnd))
	if e < start {
		return 0, 0, fmt.Errorf("%s comes before %s; put them in order, or remove both and run again", InstructionsEnd, InstructionsStart)
	}
	return start, e + len(InstructionsEnd), nil
}

func appendBlock(doc, block []byte) []byte {
	out := append([]byte{}, doc...)
	switch {
	case len(out) == 0:
	case bytes.HasSuffix(out, []byte("\n\n")):
	case bytes.HasSuffix(out, []byte("\n")):
		out = append(out, '\n')
	default:
		out = append(out, '\n', '\n')
	}
	return append(out, block...)
}
