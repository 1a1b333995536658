package audit

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

const maxFrontMatter = 64 << 10

// frontMatter holds the SKILL.md fields the audit reads.
type frontMatter struct {
	name, description string
	tools             []string
	hasTools          bool
	// offsets of the values in the file, for finding positions
	nameOff, descOff, toolsOff int
	// 1-based line and column of name and allowed-tools in the file
	nameAt, toolsAt [2]int
}

// parseFrontMatter reads the YAML frontmatter of a SKILL.md. problem is
// non-empty when the frontmatter is missing or malformed; off is where.
func parseFrontMatter(text []byte) (fm *frontMatter, problem string, off int) {
	yamlStart, y, problem := frontMatterYAML(text)
	if problem != "" {
		return nil, problem, 0
	}
	fm, problem = readFrontMatter(text, yamlStart, y)
	if fm == nil {
		return nil, problem, 0
	}
	switch {
	case strings.TrimSpace(fm.name) == "":
		return fm, "SKILL.md frontmatter has no name", 0
	case strings.TrimSpace(fm.description) == "":
		return fm, "SKILL.md frontmatter has no description; agents skip a skill without one", 0
	}
	return fm, "", 0
}

// frontMatterYAML returns the YAML text of the frontmatter of text and the
// offset where it starts; problem says why there is none.
func frontMatterYAML(text []byte) (yamlStart int, y []byte, problem string) {
	start := 0
	if bytes.HasPrefix(text, []byte("\ufeff")) {
		start = 3
	}
	body, ok := bytes.CutPrefix(text[start:], []byte("---"))
	if !ok || len(body) == 0 || (body[0] != '\n' && body[0] != '\r') {
		return 0, nil, "SKILL.md has no YAML frontmatter; start the file with a --- line, name and description"
	}
	head := body[:min(len(body), maxFrontMatter)]
	end := closingFence(head)
	if end < 0 {
		return 0, nil, "SKILL.md frontmatter is not closed by a --- line within 64 KiB"
	}
	return start + 3, head[:end], ""
}

// readFrontMatter reads the YAML text y of the frontmatter, which starts at offset yamlStart
// of text: without a YAML parser when it is written in the plain subset that
// quickFrontMatter reads, else with yaml.v3. fm is nil when y is no mapping; problem says why.
func readFrontMatter(text []byte, yamlStart int, y []byte) (fm *frontMatter, problem string) {
	lines := lineStarts(text[yamlStart : yamlStart+len(y)]) // the lines of the frontmatter are enough
	off := func(line, column int) int {
		if line < 1 || line > len(lines) {
			return 0
		}
		return yamlStart + lines[line-1] + max(0, column-1)
	}
	if pairs, ok := quickFrontMatter(y); ok {
		fm = &frontMatter{}
		for _, p := range pairs {
			fm.readPair(p.key, p.value, p.line, p.column, off(p.line, p.column), func() []string { return splitTools(p.value) })
		}
		return fm, ""
	}
	return yamlFrontMatter(y, off)
}

// yamlFrontMatter reads the frontmatter with yaml.v3.
func yamlFrontMatter(y []byte, off func(line, column int) int) (*frontMatter, string) {
	var root yaml.Node
	if err := yaml.Unmarshal(y, &root); err != nil {
		return nil, "SKILL.md frontmatter is not valid YAML: " + bounded(err.Error(), 200)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, "SKILL.md frontmatter is not a mapping of keys to values"
	}
	fm := &frontMatter{}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		fm.readPair(key.Value, scalar(val), val.Line, val.Column, off(val.Line, val.Column), func() []string { return toolList(val) })
	}
	return fm, ""
}

// closingFence returns the offset in body of the line that closes the
// frontmatter, or -1.
func closingFence(body []byte) int {
	for off := 0; off < len(body); {
		end := lineEndAt(body, off)
		if string(bytes.TrimRight(body[off:end], " \t\r")) == "---" && off > 0 {
			return off
		}
		off = end + 1
	}
	return -1
}

// readPair records the value of one top-level key, placed at a 1-based line and column of
// the YAML text and at offset off of the file.
func (fm *frontMatter) readPair(key, value string, line, column, off int, tools func() []string) {
	switch key {
	case "name":
		fm.name, fm.nameOff = value, off
		fm.nameAt = [2]int{line + 1, column}
	case "description":
		fm.description, fm.descOff = value, off
	case "allowed-tools":
		fm.hasTools, fm.toolsOff = true, off
		fm.toolsAt = [2]int{line + 1, column}
		fm.tools = tools()
	}
}

func scalar(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}

// toolList splits allowed-tools, written as a space- or comma-separated
// string or as a list, keeping spaces inside parentheses.
func toolList(n *yaml.Node) []string {
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		out = splitTools(n.Value)
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out = append(out, splitTools(scalar(c))...)
		}
	}
	return out
}

func splitTools(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(i int) {
		if t := strings.TrimSpace(s[start:i]); t != "" {
			out = append(out, t)
		}
		start = i + 1
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && (c == ' ' || c == ',' || c == '\t' || c == '\n'):
			flush(i)
		}
	}
	flush(len(s))
	return out
}

func lineStarts(text []byte) []int {
	starts := make([]int, 1, bytes.Count(text, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}

func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// unrestrictedTool reports why an allowed-tools entry grants an unrestricted
// shell or network access, or "" when it does not.
func unrestrictedTool(t string) string {
	name, arg, hasArg := strings.Cut(t, "(")
	name = strings.ToLower(strings.TrimSpace(name))
	arg = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(arg), ")"))
	switch {
	case name == "*":
		return "every tool"
	case shellTools[name] && (!hasArg || arg == "" || strings.Trim(arg, "*: ") == ""):
		return fmt.Sprintf("%s without a command restriction: any shell command", t)
	case shellTools[name] && riskyCommands[firstWord(arg)]:
		return fmt.Sprintf("%s: %s runs arbitrary code or reaches the network", t, firstWord(arg))
	case netTools[name] && (!hasArg || strings.Trim(arg, "*: ") == "" || strings.HasSuffix(arg, ":*")):
		return fmt.Sprintf("%s without a domain restriction: any web address", t)
	}
	return ""
}

func firstWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, " :*"); i >= 0 {
		s = s[:i]
	}
	return s
}

var (
	shellTools    = set("bash", "shell", "terminal", "run_shell_command", "powershell", "exec", "command")
	netTools      = set("webfetch", "fetch", "web_fetch", "browser")
	riskyCommands = set("sh", "bash", "zsh", "fish", "dash", "ksh", "python", "python3", "node", "deno", "bun",
		"perl", "ruby", "php", "pwsh", "powershell", "cmd", "eval", "exec", "env", "xargs", "sudo", "su",
		"curl", "wget", "nc", "ncat", "socat", "ssh", "scp", "rsync", "ftp", "telnet", "npx", "uvx")
)
