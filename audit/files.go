package audit

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// scanFile applies the content rules to one regular file.
func (s *scanner) scanFile(t *treeScan, e treeEntry, c content) {
	data, kind, name := c.data, c.kind, c.name
	ext := extOf(e.path)
	switch {
	case kind == binNone:
		s.textFile(t, e, data, c.truncated)
	case bytecodeEx[ext] && t.paths[pythonSource(e.path)]:
		t.runs[e.path] = true
		t.add("SG-TREE-011", e.path, e.path+" is compiled bytecode next to its source; nothing shows that the two match, so remove the compiled file", e.path)
	case bytecodeEx[ext] || kind == binExecutable:
		t.runs[e.path] = true
		t.add("SG-TREE-003", e.path, fmt.Sprintf("%s is a %s: compiled code cannot be reviewed and runs with the user's rights; ship source instead", e.path, orName(name, "compiled bytecode file")), e.path)
	default:
		binaryFile(t, e, data, kind, name)
	}
}

// pythonSource returns the source file a .pyc was compiled from:
// pkg/__pycache__/mod.cpython-312.pyc comes from pkg/mod.py.
func pythonSource(p string) string {
	dir, base := path.Split(p)
	if !strings.HasSuffix(base, ".pyc") && !strings.HasSuffix(base, ".pyo") {
		return ""
	}
	mod, _, _ := strings.Cut(base, ".")
	dir = strings.TrimSuffix(dir, "/")
	if path.Base(dir) == "__pycache__" {
		dir = path.Dir(dir)
	}
	return path.Join(dir, mod+".py")
}

func orName(name, alt string) string {
	if name == "" || name == "binary data" {
		return alt
	}
	return name
}

// binaryFile judges a non-text file by what its bytes say it is. Inert
// assets (images, fonts, audio, video, data) are data whatever their name.
func binaryFile(t *treeScan, e treeEntry, data []byte, kind binType, name string) {
	ext := extOf(e.path)
	switch kind {
	case binImage:
		if !inertExts[ext] && !dataFormats[name] {
			t.runs[e.path] = true
			t.add("SG-TREE-003", e.path, fmt.Sprintf("%s holds a %s under a name that does not say so: a file can start like an image and go on as a script that a shell runs; give it its type's extension or remove it", e.path, name), e.path)
		}
	case binPDF:
		if tok := pdfActive(data); tok != "" {
			t.add("SG-TREE-004", e.path, fmt.Sprintf("%s is a PDF with active content (%s): opening it may run code; export it again without scripts and actions", e.path, tok), e.path+tok)
		}
	case binOffice, binArchive:
		officeOrArchive(t, e, data, name)
	case binOLE:
		t.add("SG-TREE-004", e.path, e.path+" is a legacy Office document, which can carry macros that run when it is opened; convert it to a format without macros", e.path)
	default:
		if textExt(ext) {
			t.runs[e.path] = true
			t.add("SG-TREE-003", e.path, fmt.Sprintf("%s is named like a .%s file but holds binary data: a name that lies about the content hides what the file does; rename or remove it", e.path, ext), e.path)
			return
		}
		t.add("SG-TREE-011", e.path, e.path+" is binary data of no known type and cannot be reviewed; remove it or replace it with a documented format", e.path)
	}
}

// dataFormats are inert formats that tools store under names of their own,
// such as coverage.py's .coverage database.
var dataFormats = set("SQLite database", "Parquet data", "NumPy array")

// officeOrArchive judges a zip-like file: an Office document is checked
// for macros, anything else is an archive whose content is not audited.
func officeOrArchive(t *treeScan, e treeEntry, data []byte, name string) {
	ext := extOf(e.path)
	if officeExt[ext] && strings.HasPrefix(string(data), "PK") {
		macros, ok := zipHasMacros(data)
		if ok && (macros || macroExts[ext]) {
			t.add("SG-TREE-004", e.path, e.path+" is an Office document with macros, which run code when it is opened; save it without macros", e.path)
		}
		if ok {
			return
		}
	}
	t.add("SG-TREE-010", e.path, fmt.Sprintf("%s is a %s shipped in the skill: its content is not audited; add the files themselves instead", e.path, name), e.path)
}

func textExt(ext string) bool {
	return proseExts[ext] || markupExts[ext] || dataExts[ext] || scriptExt[ext]
}

// textFile scans a text file and records what the diff rules compare.
func (s *scanner) textFile(t *treeScan, e treeEntry, data []byte, truncated bool) {
	ext := extOf(e.path)
	if isLFSPointer(data) {
		t.add("SG-TREE-013", e.path, e.path+" is a Git LFS pointer: the file itself is stored elsewhere, so agents get this pointer, not the file; add the file to the skill if it needs it", e.path)
		return
	}
	if imageExts[ext] || bytecodeEx[ext] || binaryExts[ext] || ext == "pdf" {
		t.runs[e.path] = true
		t.add("SG-TREE-003", e.path, fmt.Sprintf("%s is named like a .%s file but holds text: a name that lies about the content hides what the file does; rename it", e.path, ext), e.path)
	}
	if isUTF16(data) {
		data = decodeUTF16(data)
	}
	if truncated || len(data) > maxTextBytes {
		t.add("SG-TREE-008", e.path, fmt.Sprintf("text file %s is larger than %d MiB; only its first %d MiB were audited; split it", e.path, maxTextBytes>>20, maxTextBytes>>20), e.path)
		data = data[:min(len(data), maxTextBytes)]
	}
	kind := kindOf(e.path, data[:min(len(data), 256)])
	s.structureOfText(t, e, data, kind)
	t.collectCode(e.path, data, kind)
	if kind&(kindProse|kindScript) != 0 {
		t.texts[e.path] = data
	}
	text := blankContinuations(data)
	if kind&kindProse != 0 {
		text = joinSoftBreaks(text)
	}
	u := &unit{file: e.path, text: text, orig: data, kind: kind, html: htmlExts[extOf(e.path)]}
	if u.html {
		u.app = activeMarkup(data) != ""
	}
	if t.mayArchive && kind&(kindProse|kindScript) != 0 {
		t.runLines = append(t.runLines, extractAndRunLines(u.folded())...)
	}
	hits := s.scanText(u)
	if e.path == "SKILL.md" {
		hits = append(hits, frontMatterHits(t, u)...)
		t.hits = dropSelfInstalls(t.hits, t.front) // files read before SKILL.md
	}
	hits = dropSelfInstalls(hits, t.front)
	li := newLineIndex(data)
	placeHits(hits, data, li)
	t.hits = append(t.hits, hits...)
	collectDomains(t, e.path, data, li)
}

// lfsPointerRe matches the whole of the text that Git LFS stores in place
// of a file, and nothing more: text after it is read like any other.
var lfsPointerRe = lazy(`^version https://git-lfs\.github\.com/spec/v1\n(?:ext-\d+-\w+ sha256:[0-9a-f]{64}\n)*oid sha256:[0-9a-f]{1,64}\nsize \d{1,20}\n?$`)

func isLFSPointer(data []byte) bool { return len(data) < 1024 && lfsPointerRe.Match(data) }

// structureOfText applies the rules about what kind of text file it is.
func (s *scanner) structureOfText(t *treeScan, e treeEntry, data []byte, kind fileKind) {
	if kind == kindScript {
		t.runs[e.path] = true
		t.add("SG-TREE-006", e.path, "", e.path)
	}
	s.hiddenCode(t, e, data, kind)
	if kind == kindMarkup && htmlExts[extOf(e.path)] {
		activeAsset(t, e.path, data)
	}
}

// hiddenCode reports code in a file whose name starts with a dot (high),
// or a script inside a folder whose name does (medium: the script is
// already reported, and tools keep their files in such folders).
func (s *scanner) hiddenCode(t *treeScan, e treeEntry, data []byte, kind fileKind) {
	base := path.Base(e.path)
	if !hiddenPath(e.path) || benignDotfile(base) || !looksLikeCode(e.path, data, kind) {
		return
	}
	h := t.add("SG-TREE-005", e.path, "hidden file "+e.path+" holds code: files whose names start with a dot are left out of most listings and reviews; rename it or remove it", e.path)
	if !strings.HasPrefix(base, ".") {
		h.Severity = Medium
		h.Message = e.path + " is code inside a hidden folder, which most listings leave out; move it to a visible folder such as scripts/"
	}
}

func hiddenPath(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

var benignDotfiles = set(".gitignore", ".gitattributes", ".gitkeep", ".keep", ".editorconfig", ".prettierrc",
	".prettierignore", ".markdownlint.json", ".markdownlint.yaml", ".markdownlintignore", ".npmignore", ".dockerignore")

func benignDotfile(name string) bool { return benignDotfiles[strings.ToLower(name)] }

var codeMarkers = []string{"#!", "eval", "exec", "import ", "require(", "function ", "curl ", "wget ", "$(", "subprocess", "os.system", "powershell", "base64", "<script"}

func looksLikeCode(p string, data []byte, kind fileKind) bool {
	if kind == kindScript {
		return true
	}
	if kind == kindProse && extOf(p) != "" {
		return false
	}
	for _, m := range codeMarkers {
		if bytes.Contains(data, []byte(m)) {
			return true
		}
	}
	return false
}

var activeMarkupRe = []struct{ tok, re string }{
	{"<script>", "<script"}, {"event handler attribute", " on"}, {"javascript: URL", "javascript:"},
	{"<foreignObject>", "<foreignobject"}, {"<iframe>", "<iframe"}, {"<object>", "<object"}, {"<embed>", "<embed"},
}

// activeMarkup returns the first kind of active content in SVG or HTML.
func activeMarkup(data []byte) string {
	lower := bytes.ToLower(data)
	for _, a := range activeMarkupRe {
		if a.re == " on" {
			if eventAttr(lower) {
				return a.tok
			}
			continue
		}
		if bytes.Contains(lower, []byte(a.re)) {
			return a.tok
		}
	}
	return ""
}

// eventAttr finds an attribute like onload= inside a tag.
func eventAttr(lower []byte) bool {
	for off := 0; ; {
		i := bytes.Index(lower[off:], []byte("on"))
		if i < 0 {
			return false
		}
		i += off
		off = i + 2
		if i == 0 || (lower[i-1] != ' ' && lower[i-1] != '\n' && lower[i-1] != '\t' && lower[i-1] != '/') {
			continue
		}
		j := i + 2
		for j < len(lower) && 'a' <= lower[j] && lower[j] <= 'z' {
			j++
		}
		for j < len(lower) && (lower[j] == ' ' || lower[j] == '\t') {
			j++
		}
		if j > i+3 && j < len(lower) && lower[j] == '=' && bytes.LastIndexByte(lower[:i], '<') > bytes.LastIndexByte(lower[:i], '>') {
			return true
		}
	}
}

// checkName reports path names made to deceive a reviewer.
func checkName(t *treeScan, p string) {
	if why := deceptiveName(p); why != "" {
		t.add("SG-TREE-009", p, fmt.Sprintf("path %q %s: a name that looks like another hides what the file is; rename it", p, why), p)
	}
}

func deceptiveName(p string) string {
	for _, part := range strings.Split(p, "/") {
		switch {
		case part != strings.TrimSpace(part):
			return "has leading or trailing white space"
		case strings.HasSuffix(part, ".") && part != "." && part != "..":
			return "ends with a dot"
		case strings.ContainsAny(part, "\\:*?\"<>|"):
			return "holds characters that are not allowed in file names on Windows"
		}
		for _, r := range part {
			if r < 0x20 || r == 0x7f || classify(r) != invNone {
				return "holds an invisible or control character"
			}
		}
		if mixedWord(part) {
			return "mixes look-alike letters from another script into a Latin name"
		}
	}
	base := path.Base(p)
	if base != "SKILL.md" && path.Dir(p) == "." && strings.EqualFold(foldName(base), "skill.md") {
		return "imitates SKILL.md"
	}
	return ""
}

// mixedWord reports whether some word of s mixes ASCII letters with
// look-alike letters of another script and nothing else.
func mixedWord(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		ascii, fold, other := wordMix([]byte(w))
		if ascii > 0 && fold > 0 && other == 0 && hasConfusable([]byte(w)) {
			return true
		}
	}
	return false
}

// foldName folds look-alike letters and drops what is invisible.
func foldName(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		if c, ok := foldRune(r); ok {
			b.WriteByte(c)
		} else if classify(r) == invNone && r != utf8.RuneError {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// placeHits sets the line and column of each hit. Columns are counted
// from the previous hit on the same line, so many hits on one long line
// cost one pass over it.
func placeHits(hits []hit, data []byte, li lineIndex) {
	order := make([]int, 0, len(hits))
	for i, h := range hits {
		if h.start >= 0 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return hits[a].start - hits[b].start })
	prevLine, prevCol, prevOff := 0, 0, 0
	for _, i := range order {
		h := &hits[i]
		off := min(h.start, len(data))
		line := li.line(off)
		if line == prevLine {
			h.Line, h.Column = line, prevCol+utf8.RuneCount(data[prevOff:off])
		} else {
			h.Line, h.Column = line, utf8.RuneCount(data[li[line-1]:off])+1
		}
		prevLine, prevCol, prevOff = line, h.Column, off
	}
}

// activeAsset reports script in an HTML or SVG file: medium, or high when
// the file loads code from a host that is neither a known library CDN nor
// pinned by an integrity hash.
func activeAsset(t *treeScan, p string, data []byte) {
	tok := activeMarkup(data)
	if tok == "" {
		return
	}
	h := t.add("SG-TREE-012", p, fmt.Sprintf("%s holds active content (%s): opening it in a browser runs code; review what it does", p, tok), p+tok)
	switch src := remoteScript(data); {
	case src != "":
		h.Severity = High
		h.Message = fmt.Sprintf("%s loads code from %s when it is opened: nobody reviewed that code and it can change at any time; ship the library in the skill or pin it with an integrity hash", p, bounded(src, 100))
	case scriptObfuscRe.Match(data):
		h.Severity = High
		h.Message = p + " holds script that decodes hidden code and runs it when the file is opened; write the script out plainly"
	case sendsBrowserData(data):
		h.Severity = High
		h.Message = p + " holds script that sends cookies or browser storage to a remote address when the file is opened; remove the script"
	}
}
