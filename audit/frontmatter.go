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
	start := 0
	if bytes.HasPrefix(text, []byte("\ufeff")) {
		start = 3
	}
	body, ok := bytes.CutPrefix(text[start:], []byte("---"))
	if !ok || len(body) == 0 || (body[0] != '\n' && body[0] != '\r') {
		return nil, "SKILL.md has no YAML frontmatter; start the file with a --- line, name and description", 0
	}
	head := body[:min(len(body), maxFrontMatter)]
	end := closingFence(head)
	if end < 0 {
		return nil, "SKILL.md frontmatter is not closed by a --- line within 64 KiB", 0
	}
	yamlStart := start + 3
	var root yaml.Node
	if err := yaml.Unmarshal(head[:end], &root); err != nil {
		return nil, "SKILL.md frontmatter is not valid YAML: " + bounded(err.Error(), 200), 0
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, "SKILL.md frontmatter is not a mapping of keys to values", 0
	}
	fm = &frontMatter{}
	lines := lineStarts(text[yamlStart:])
	fm.read(root.Content[0], func(n *yaml.Node) int { return yamlStart + offsetOf(lines, n) })
	switch {
	case strings.TrimSpace(fm.name) == "":
		return fm, "SKILL.md frontmatter has no name", 0
	case strings.TrimSpace(fm.description) == "":
		return fm, "SKILL.md frontmatter has no description; agents skip a skill without one", 0
	}
	return fm, "", 0
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

func (fm *frontMatter) read(m *yaml.Node, off func(*yaml.Node) int) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		switch key.Value {
		case "name":
			fm.name, fm.nameOff = scalar(val), off(val)
			fm.nameAt = [2]int{val.Line + 1, val.Column}
		case "description":
			fm.description, fm.descOff = scalar(val), off(val)
		case "allowed-tools":
			fm.hasTools, fm.toolsOff = true, off(val)
			fm.toolsAt = [2]int{val.Line + 1, val.Column}
			fm.tools = toolList(val)
		}
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
	starts := []int{0}
	for i, b := range text {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offsetOf converts a node's 1-based line and column into a byte offset;
// yaml.v3 counts columns in runes, which is close enough for a position.
func offsetOf(lines []int, n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(lines) {
		return 0
	}
	return lines[n.Line-1] + max(0, n.Column-1)
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
