package catalog

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// PromptEntry is one skill as listed to an agent.
type PromptEntry struct {
	Name        string
	Description string
	// Location is where the agent can read the skill, such as the path of its SKILL.md.
	Location string
	// Scope, when not empty, says where an installed skill sits: project or global.
	Scope string
}

// WritePrompt writes the <available_skills> block that tells an agent which
// skills exist: every tag on its own line and every value, escaped as XML
// text, on the line between its tags. An empty list yields just the outer two lines.
func WritePrompt(w io.Writer, entries []PromptEntry) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("<available_skills>\n")
	for _, e := range entries {
		bw.WriteString("<skill>\n")
		writeElement(bw, "name", e.Name)
		writeElement(bw, "description", e.Description)
		writeElement(bw, "location", e.Location)
		if e.Scope != "" {
			writeElement(bw, "scope", e.Scope)
		}
		bw.WriteString("</skill>\n")
	}
	bw.WriteString("</available_skills>\n")
	return bw.Flush()
}

// xmlText escapes what XML text needs escaped and nothing else, so that apostrophes and
// quotes in a description reach the agent as written.
var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// writeElement writes an opening tag, the escaped value and the closing tag,
// each on its own line. bufio.Writer keeps the first error for Flush.
func writeElement(bw *bufio.Writer, tag, value string) {
	bw.WriteString("<" + tag + ">\n")
	xmlText.WriteString(bw, value)
	bw.WriteString("\n</" + tag + ">\n")
}

// WriteRead writes a skill the way agents load it: a "Reading:" line with
// its name, a "Base directory:" line, a blank line, content as is, a blank
// line and a closing "Skill read:" line. Exactly one newline separates the
// content from that blank line, whether or not content ends with one.
func WriteRead(w io.Writer, name, baseDir string, content []byte) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("Reading: " + name + "\nBase directory: " + baseDir + "\n\n")
	bw.Write(content)
	if !bytes.HasSuffix(content, []byte{'\n'}) {
		bw.WriteByte('\n')
	}
	bw.WriteString("\nSkill read: " + name + "\n")
	return bw.Flush()
}
