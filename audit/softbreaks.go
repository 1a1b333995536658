package audit

import "bytes"

// Prose in Markdown is wrapped by hand: a sentence that tells the agent to do something may
// run over two or three lines, and a rule that reads one line would see none of it whole. So
// before the rules read prose, the line breaks inside a paragraph (soft breaks, which
// Markdown renders as spaces) become spaces. Nothing else moves: offsets, lines and snippets
// stay those of the file. Breaks that end a paragraph, start a list item, a heading, a quote,
// a table row or a fence, and every break inside a fenced or indented code block or the
// frontmatter, stay.

// joinSoftBreaks returns text with the soft line breaks of its paragraphs turned into spaces;
// text itself when it has none.
func joinSoftBreaks(text []byte) []byte {
	var out []byte
	fence := byte(0)
	off := frontMatterEnd(text)
	for off < len(text) {
		end := lineEndAt(text, off)
		line := text[off:end]
		if f := fenceMark(line); f != 0 && (fence == 0 || f == fence) {
			fence ^= f
		} else if fence == 0 && end < len(text) && softBreak(line, text[end+1:lineEndAt(text, end+1)]) {
			if out == nil {
				out = bytes.Clone(text)
			}
			out[end] = ' '
			if end > 0 && out[end-1] == '\r' {
				out[end-1] = ' '
			}
		}
		off = end + 1
	}
	if out == nil {
		return text
	}
	return out
}

// fenceMark is the fence character a line opens or closes a fence with, or 0.
func fenceMark(line []byte) byte {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0
	}
	switch {
	case bytes.HasPrefix(t, []byte("```")):
		return '`'
	case bytes.HasPrefix(t, []byte("~~~")):
		return '~'
	}
	return 0
}

// softBreak reports whether the break between line and next is inside a paragraph.
func softBreak(line, next []byte) bool {
	cur := bytes.TrimRight(line, "\r")
	if len(bytes.TrimSpace(cur)) == 0 || len(bytes.TrimSpace(next)) == 0 || codeIndent(cur) || codeIndent(next) {
		return false
	}
	if bytes.HasSuffix(cur, []byte("  ")) || bytes.HasSuffix(cur, []byte("\\")) {
		return false // a hard break
	}
	c := bytes.TrimLeft(cur, " ")
	if c[0] == '#' || c[0] == '|' || c[0] == '<' {
		return false
	}
	n := bytes.TrimLeft(next, " ")
	return !blockStart(n) && !commandLine(c) && !commandLine(n) && !aligned(c) && !aligned(n)
}

// aligned reports a line laid out in columns, with a run of spaces inside it: a list of
// labels and values, where each line stands alone.
func aligned(l []byte) bool {
	return bytes.Contains(bytes.TrimRight(l, " \r"), []byte("   "))
}

// commandLine reports a line that reads as a command rather than prose: one that starts with
// a path, a prompt or a common command, as skills write commands one per line without a fence.
func commandLine(l []byte) bool {
	switch l[0] {
	case '/', '.', '~', '$', '-':
		return true
	}
	word := l
	if i := bytes.IndexAny(l, " \t"); i >= 0 {
		word = l[:i]
	}
	return lineCommands[string(word)]
}

var lineCommands = set("curl", "wget", "chmod", "chown", "bash", "sh", "zsh", "python", "python3", "node", "npm",
	"npx", "pip", "pip3", "git", "sudo", "cd", "mkdir", "rm", "cp", "mv", "echo", "export", "cat", "source", "eval",
	"exec", "docker", "kubectl", "make", "go", "cargo", "uv", "brew", "apt", "apt-get", "yarn", "pnpm", "deno", "bun",
	"powershell", "pwsh", "iex", "irm", "iwr", "ssh", "scp", "nc", "env", "printenv", "crontab", "tar", "unzip", "dd")

// codeIndent reports a line indented as code: four spaces or a tab.
func codeIndent(line []byte) bool {
	return bytes.HasPrefix(line, []byte("    ")) || bytes.HasPrefix(line, []byte("\t"))
}

// blockStart reports a line that starts a block of its own: a heading, a list item, a quote,
// a table row, a fence, a rule or HTML.
func blockStart(t []byte) bool {
	switch t[0] {
	case '#', '>', '|', '<', '`', '~', '=':
		return true
	case '-', '*', '+':
		return len(t) == 1 || t[1] == ' ' || t[1] == t[0]
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')')
}

// frontMatterEnd is the offset after a leading frontmatter block, or 0.
func frontMatterEnd(text []byte) int {
	if !bytes.HasPrefix(text, []byte("---\n")) && !bytes.HasPrefix(text, []byte("---\r\n")) {
		return 0
	}
	for off := lineEndAt(text, 0) + 1; off < len(text); {
		end := lineEndAt(text, off)
		if l := bytes.TrimRight(text[off:end], "\r "); string(l) == "---" || string(l) == "..." {
			return min(end+1, len(text))
		}
		off = end + 1
	}
	return 0
}
