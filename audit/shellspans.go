package audit

import (
	"bytes"
)

// shellSpan is a stretch of a unit that holds shell code: src is what the
// parser reads (the unit's bytes, or a copy with console prompts and
// output blanked, offsets kept) and covers are the ranges of the unit the
// parsed reading replaces the line-based one on.
type shellSpan struct {
	start  int
	src    []byte
	covers [][2]int
}

var (
	shellExts   = set("sh", "bash", "zsh", "ksh", "dash", "command")
	shellFences = set("sh", "bash", "shell", "zsh", "ksh", "console", "shell-session", "shellsession")
	shebangRe   = lazy(`^#!\s*\S*(?:/|env\s+(?:-\S+\s+)*)(?:ba|z|k|da)?sh\b`)
)

// shellSpans returns the spans of u that hold shell code: the whole of a
// shell script, or the fenced blocks of prose tagged as shell. Makefile
// recipes, package.json scripts, YAML run: values and untagged code are
// read line by line (shellExpandHits).
func shellSpans(u *unit) []shellSpan {
	if u.depth > 0 {
		return nil
	}
	switch {
	case u.kind&kindScript != 0:
		if shellExts[extOf(u.file)] || shebangRe.Match(u.text[:lineEndAt(u.text, 0)]) {
			return []shellSpan{{start: 0, src: u.text, covers: [][2]int{{0, len(u.text)}}}}
		}
	case u.kind&kindProse != 0:
		return shellFenceSpans(u.text)
	}
	return nil
}

// shellFenceSpans returns the bodies of the fenced blocks tagged as shell.
func shellFenceSpans(text []byte) []shellSpan {
	if !bytes.Contains(text, []byte("```")) && !bytes.Contains(text, []byte("~~~")) {
		return nil
	}
	var out []shellSpan
	for _, f := range fences(text) {
		open := lineEndAt(text, f[0])
		tag := bytes.ToLower(bytes.TrimSpace(bytes.TrimLeft(bytes.TrimSpace(text[f[0]:open]), "`~")))
		if i := bytes.IndexAny(tag, " \t{,"); i >= 0 {
			tag = tag[:i]
		}
		if !shellFences[string(tag)] || open+1 > f[1] {
			continue
		}
		start, end := open+1, lineStartAt(text, f[1])
		if f[1] == len(text) && !fenceLine(text[end:]) {
			end = len(text)
		}
		if start > end {
			continue
		}
		body := text[start:end]
		if string(tag) == "console" || bytes.HasPrefix(tag, []byte("shell")) && len(tag) > 5 {
			out = append(out, consoleSpan(start, body))
			continue
		}
		out = append(out, shellSpan{start: start, src: body, covers: [][2]int{{start, end}}})
	}
	return out
}

func fenceLine(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	return bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
}

// consoleSpan keeps the commands of a console session, the lines after a
// `$ ` prompt, and blanks the prompts and the output between them.
func consoleSpan(start int, body []byte) shellSpan {
	src := bytes.Clone(body)
	sp := shellSpan{start: start, src: src}
	for off := 0; off < len(src); {
		end := lineEndAt(src, off)
		line := src[off:end]
		if p := bytes.Index(line, []byte("$ ")); p >= 0 && len(bytes.TrimSpace(line[:p])) == 0 {
			for i := range p + 2 {
				line[i] = ' '
			}
			sp.covers = append(sp.covers, [2]int{start + off, start + end})
		} else {
			for i := range line {
				line[i] = ' '
			}
		}
		off = end + 1
	}
	return sp
}

// readShell parses the shell spans of u worth expanding and returns the
// commands that hid something, written out, and the ranges of u read so.
func readShell(u *unit) ([]shellLine, [][2]int) {
	spans := shellSpans(u)
	if len(spans) == 0 {
		return nil, nil
	}
	var r *shellReader
	var covered [][2]int
	for _, sp := range spans {
		if !worthParsing(sp.src) && (r == nil || len(r.funcs) == 0) {
			continue
		}
		if r == nil {
			r = newShellReader()
		}
		if r.read(sp.src, sp.start) {
			covered = append(covered, sp.covers...)
		}
	}
	if r == nil {
		return nil, nil
	}
	return r.lines, covered
}

// worthParsing reports whether shell code holds anything expansion could
// change: a variable, a quote or backslash, a substitution or a function.
func worthParsing(src []byte) bool {
	return bytes.ContainsAny(src, "$\\'\"`") || bytes.Contains(src, []byte("()")) || bytes.Contains(src, []byte("function"))
}
