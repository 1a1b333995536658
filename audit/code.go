package audit

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/skillgit/skillgit/audit/codeflow"
)

// codeUnit is a piece of Python or JavaScript a skill ships, kept while
// its files are read so that all of them are analysed together.
type codeUnit struct {
	file string
	data []byte // the whole file, for placing findings
	base int    // offset of code in data; -1 when code is not a slice of data (a notebook)
	code []byte
	lang codeflow.Lang
	// cells are the offsets in code where each notebook cell starts, with the offset of
	// its first line in data.
	cells [][2]int
}

var (
	pyExts     = set("py", "pyw", "pyi")
	jsExts     = set("js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx")
	pyFences   = set("py", "python", "python3", "ipython", "ipython3", "pycon")
	jsFences   = set("js", "javascript", "node", "nodejs", "mjs", "cjs", "jsx", "ts", "typescript", "tsx")
	pyShebang  = lazy(`^#!\s*\S*(?:/|env\s+(?:-\S+\s+)*)python[0-9.]*\b`)
	jsShebang  = lazy(`^#!\s*\S*(?:/|env\s+(?:-\S+\s+)*)(?:node|deno|bun)\b`)
	maxCodeRun = 8 << 20 // bytes of code analysed per skill
)

// collectCode keeps the code of a text file for the analysis of the
// whole skill: a Python or JavaScript file, the fenced blocks of prose
// tagged as either, or a notebook's code cells.
func (t *treeScan) collectCode(file string, data []byte, kind fileKind) {
	if !codeflow.Available() || t.codeBytes >= maxCodeRun {
		return
	}
	ext := extOf(file)
	first := data[:lineEndAt(data, 0)]
	switch {
	case pyExts[ext] || kind&kindScript != 0 && pyShebang.Match(first):
		t.addCode(codeUnit{file: file, data: data, code: data, lang: codeflow.Python})
	case jsExts[ext] || kind&kindScript != 0 && jsShebang.Match(first):
		t.addCode(codeUnit{file: file, data: data, code: data, lang: codeflow.JavaScript})
	case ext == "ipynb":
		if u, ok := notebookUnit(file, data); ok {
			t.addCode(u)
		}
	case kind&kindProse != 0:
		for _, f := range fenceBodies(data) {
			if lang := fenceLang(f.tag); lang != 0 {
				t.addCode(codeUnit{file: file, data: data, base: f.start, code: data[f.start:f.end], lang: lang})
			}
		}
	}
}

func (t *treeScan) addCode(u codeUnit) {
	if t.codeBytes+len(u.code) > maxCodeRun {
		return
	}
	t.codeBytes += len(u.code)
	t.code = append(t.code, u)
}

// fenceLang is the language a fence's tag names, or 0.
func fenceLang(tag []byte) codeflow.Lang {
	if len(tag) == 0 || len(tag) > 16 {
		return 0
	}
	t := strings.ToLower(string(tag))
	switch {
	case pyFences[t]:
		return codeflow.Python
	case jsFences[t]:
		return codeflow.JavaScript
	}
	return 0
}

// notebook is the part of a Jupyter notebook the analysis reads.
type notebook struct {
	Cells []struct {
		CellType string          `json:"cell_type"`
		Source   json.RawMessage `json:"source"`
	} `json:"cells"`
	Metadata struct {
		Kernelspec struct {
			Language string `json:"language"`
		} `json:"kernelspec"`
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	} `json:"metadata"`
}

// notebookUnit joins a notebook's code cells into one unit, as the kernel
// runs them one after another; lines for the shell (!cmd) and magics
// (%cmd) are blanked, since the shell readers judge those.
func notebookUnit(file string, data []byte) (codeUnit, bool) {
	var nb notebook
	if json.Unmarshal(data, &nb) != nil {
		return codeUnit{}, false
	}
	lang := codeflow.Python
	l := strings.ToLower(nb.Metadata.Kernelspec.Language + nb.Metadata.LanguageInfo.Name)
	switch {
	case strings.Contains(l, "javascript"), strings.Contains(l, "typescript"):
		lang = codeflow.JavaScript
	case l != "" && !strings.Contains(l, "python"):
		return codeUnit{}, false
	}
	u := codeUnit{file: file, data: data, base: -1, lang: lang}
	var code bytes.Buffer
	at := 0
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		src := cellSource(c.Source)
		u.cells = append(u.cells, [2]int{code.Len(), cellOffset(data, src, &at)})
		for _, line := range strings.SplitAfter(src, "\n") {
			if t := strings.TrimSpace(line); strings.HasPrefix(t, "!") || strings.HasPrefix(t, "%") {
				line = strings.Repeat(" ", len(line)-1) + line[len(line)-1:]
			}
			code.WriteString(line)
		}
		code.WriteString("\n")
	}
	u.code = code.Bytes()
	return u, len(u.cells) > 0
}

// cellSource is a cell's source, given as one string or a list of lines.
func cellSource(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, "")
	}
	return ""
}

// cellOffset finds where a cell's first line is written in the notebook,
// searching on from *at.
func cellOffset(data []byte, src string, at *int) int {
	first, _, _ := strings.Cut(strings.TrimSpace(src), "\n")
	enc, _ := json.Marshal(first)
	if len(enc) < 3 {
		return *at
	}
	if i := bytes.Index(data[*at:], enc[1:len(enc)-1]); i >= 0 {
		*at += i
	}
	return *at
}

// place returns the offset in the unit's file of an offset in its code.
func (u *codeUnit) place(off int) int {
	if u.base >= 0 {
		return u.base + off
	}
	p := 0
	for _, c := range u.cells {
		if c[0] > off {
			break
		}
		p = c[1]
	}
	return p
}

// codeName is how a message names a unit: its file, or its file's fenced block.
func (u *codeUnit) codeName() string {
	switch {
	case u.base < 0:
		return "notebook " + u.file
	case u.base > 0 || len(u.code) < len(u.data):
		return "a fenced block of " + u.file
	}
	return path.Base(u.file)
}
