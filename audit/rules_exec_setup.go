package audit

import (
	"bytes"
	"slices"
	"strings"
)

// maxSetupSnippet bounds the configuration snippet read after a sentence that introduces it.
const maxSetupSnippet = 8 << 10

// demoteSetupSnippets lowers to medium a write of an agent's settings or MCP configuration
// (SG-EXE-010) that only introduces a snippet for the user to add: a sentence of prose ending
// in a colon ("Add to `claude_desktop_config.json`:") or naming a snippet, followed by a
// JSON, TOML or YAML block that grants no permissions. A person still approves it; a command
// that writes the file, and a snippet that allows tools, skips approvals or trusts a
// project, stay high.
func demoteSetupSnippets(u *unit, hits []hit) {
	var fenced [][2]int
	computed := false
	for i := range hits {
		h := &hits[i]
		if h.RuleID != "SG-EXE-010" || h.Severity != h.rule.Severity || h.start < 0 || h.more > 0 || h.tags&tagObfuscation != 0 {
			continue
		}
		if !computed {
			fenced, computed = fences(u.text), true
		}
		if setupSnippet(u.text, fenced, h.start) {
			h.Severity = Medium
			h.Message += " It shows a configuration snippet for the user to add, so it is medium."
		}
	}
}

// setupSnippet reports a prose line at s that introduces the fenced block right after it,
// a block of configuration data that grants nothing.
func setupSnippet(text []byte, fenced [][2]int, s int) bool {
	if inRanges(fenced, s) {
		return false
	}
	le := lineEndAt(text, s)
	line := bytes.TrimRight(text[lineStartAt(text, s):le], " \t*_")
	if !bytes.HasSuffix(line, []byte(":")) && !bytes.Contains(bytes.ToLower(line), []byte("snippet")) {
		return false
	}
	i := slices.IndexFunc(fenced, func(f [2]int) bool { return f[0] > le })
	if i < 0 || len(bytes.TrimSpace(text[le:fenced[i][0]])) != 0 || fenced[i][1]-fenced[i][0] > maxSetupSnippet {
		return false
	}
	block := bytes.ToLower(text[fenced[i][0]:fenced[i][1]])
	info := strings.TrimSpace(strings.Trim(string(block[:lineEndAt(block, 0)]), "`~"))
	if !snippetLangs[info] {
		return false
	}
	return !slices.ContainsFunc(grantWords, func(w string) bool { return bytes.Contains(block, []byte(w)) })
}

var (
	snippetLangs = set("json", "jsonc", "json5", "toml", "yaml", "yml")
	// grantWords are settings that widen what an agent may do without asking.
	grantWords = []string{"permission", "allow", "bypass", "danger", "yolo", "trust", "sandbox", "approv", "skip"}
)
