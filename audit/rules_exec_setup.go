package audit

import (
	"bytes"
	"slices"
	"strings"
)

// maxSetupSnippet bounds the configuration snippet read after a sentence that introduces it.
const maxSetupSnippet = 8 << 10

// demoteSetupSnippets lowers to medium a write of an agent's settings or MCP configuration
// (SG-EXE-010) that only points the user at a snippet to add: a sentence ending in a colon
// ("Add to `claude_desktop_config.json`:") or naming a snippet, right before a JSON, TOML or
// YAML block, or one that adds "the snippet above". A person still approves it; a command
// that writes the file, and a snippet or sentence that allows tools, skips approvals or
// trusts a project, stay high.
func demoteSetupSnippets(u *unit, hits []hit) {
	for i := range hits {
		h := &hits[i]
		if h.RuleID != "SG-EXE-010" || h.Severity != h.rule.Severity || h.start < 0 || h.more > 0 || h.tags&tagObfuscation != 0 {
			continue
		}
		if setupSnippet(u.text, h.start, h.content) {
			h.Severity = Medium
			h.Message += " It shows a configuration snippet for the user to add, so it is medium."
		}
	}
}

// setupSnippet reports a sentence at s, whose write is the match m, that introduces a
// block of configuration data granting nothing.
func setupSnippet(text []byte, s int, m string) bool {
	if verb, _, _ := strings.Cut(strings.ToLower(m), " "); strings.HasPrefix(m, ">") || shellWriters[verb] {
		return false
	}
	ls, le := lineStartAt(text, s), lineEndAt(text, s)
	line := bytes.ToLower(bytes.TrimRight(text[ls:le], " \t*_"))
	var block []byte
	switch {
	case bytes.HasSuffix(line, []byte(":")) || bytes.Contains(line, []byte("snippet")) && !bytes.Contains(line, []byte("above")):
		block = dataFenceAfter(text, le)
	case bytes.Contains(line, []byte("snippet above")) || bytes.Contains(line, []byte("above snippet")):
		block = dataFenceBefore(text, ls)
	}
	return block != nil && !slices.ContainsFunc(grantWords, func(w string) bool {
		return bytes.Contains(block, []byte(w)) || bytes.Contains(line, []byte(w))
	})
}

// dataFenceAfter returns, lower-cased, the fenced block of configuration data that starts
// after the line ending at le and blank lines, or nil.
func dataFenceAfter(text []byte, le int) []byte {
	off := le + 1
	for off < len(text) {
		end := lineEndAt(text, off)
		if len(bytes.TrimSpace(text[off:end])) > 0 {
			return dataFence(text, off)
		}
		off = end + 1
	}
	return nil
}

// dataFenceBefore returns, lower-cased, the nearest fenced block of configuration data
// that opens within maxSetupSnippet bytes before ls, or nil.
func dataFenceBefore(text []byte, ls int) []byte {
	for off := ls; off > 0 && ls-off < maxSetupSnippet; {
		off = lineStartAt(text, off-1)
		if b := dataFence(text, off); b != nil && off+len(b) <= ls {
			return b
		}
	}
	return nil
}

// dataFence returns, lower-cased, the fenced block that opens at the line starting at off
// when its info string names a configuration language and it closes within
// maxSetupSnippet bytes; else nil. A closing fence repeats the opening one's character at
// least as many times, so a block inside a longer fence is read as such.
func dataFence(text []byte, off int) []byte {
	end := lineEndAt(text, off)
	open := bytes.TrimLeft(text[off:end], " ")
	if end-off-len(open) > 3 || len(open) < 3 || open[0] != '`' && open[0] != '~' {
		return nil
	}
	n := len(open) - len(bytes.TrimLeft(open, string(open[:1])))
	if n < 3 || !snippetLangs[strings.ToLower(strings.TrimSpace(string(open[n:])))] {
		return nil
	}
	for p := end + 1; p < len(text) && p-off <= maxSetupSnippet; {
		e := lineEndAt(text, p)
		l := bytes.TrimSpace(text[p:e])
		if len(l) >= n && len(bytes.Trim(l, string(open[:1]))) == 0 {
			return bytes.ToLower(text[off:e])
		}
		p = e + 1
	}
	return nil
}

var (
	snippetLangs = set("json", "jsonc", "json5", "toml", "yaml", "yml")
	// shellWriters are the commands of SG-EXE-010's writes: a command, not a sentence.
	shellWriters = set("tee", "cp", "mv", "ln", "install", "sed", "set-content", "add-content", "out-file")
	// grantWords are settings that widen what an agent may do without asking.
	grantWords = []string{"permission", "allow", "bypass", "danger", "yolo", "trust", "sandbox", "approv", "skip"}
)
