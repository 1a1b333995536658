package audit

import (
	"bytes"
	"path"
	"strings"
)

var (
	extractRe = lazy(`\b(?:tar\s+-?[a-z]*x|unzip|7z\s+x|7za\s+x|gunzip|bsdtar|unrar|extract|unpack|expand-archive|decompress)`)
	runWordRe = lazy(`(?:\./|\b(?:bash|sh|zsh|python[\d.]*|node|perl|ruby|pwsh|run|execute|launch|start|install(?:er)?\.(?:sh|py|ps1)|chmod\s+\+x|source)\b)`)
)

// extractWords are the words that start an extraction command or verb.
var extractWords = [][]byte{[]byte("tar "), []byte("tar\t"), []byte("unzip"), []byte("7z"), []byte("gunzip"), []byte("bsdtar"),
	[]byte("unrar"), []byte("extract"), []byte("unpack"), []byte("expand-archive"), []byte("decompress")}

// extractAndRunLines returns the lines of a text that tell the agent to
// extract an archive and run something, each with the two lines after it.
// lower is the text folded to lowercase; only lines holding one of the
// extraction words are matched against the patterns.
func extractAndRunLines(lower []byte) []string {
	var out []string
	seen := map[int]bool{}
	for _, word := range extractWords {
		for off := 0; len(out) < 200; {
			i := bytes.Index(lower[off:], word)
			if i < 0 {
				break
			}
			start, end := lineStartAt(lower, off+i), lineEndAt(lower, off+i)
			off = end
			if seen[start] || !extractRe.Match(lower[start:end]) {
				continue
			}
			seen[start] = true
			if w := lower[start:lineEndAfter(lower, end, 2)]; runWordRe.Match(w) {
				out = append(out, string(w))
			}
		}
	}
	return out
}

// lineEndAfter returns the end of the n-th line after the line ending at end.
func lineEndAfter(text []byte, end, n int) int {
	for ; n > 0 && end < len(text); n-- {
		end = lineEndAt(text, end+1)
	}
	return end
}

// escalateArchives raises an archive to high when the skill's text tells
// the agent to extract it and run what it holds.
func (t *treeScan) escalateArchives() {
	for i := range t.hits {
		h := &t.hits[i]
		if h.RuleID != "SG-TREE-010" {
			continue
		}
		base := strings.ToLower(path.Base(h.File))
		for _, l := range t.runLines {
			if strings.Contains(l, base) {
				h.Severity = High
				h.Message = h.File + " is an archive that the skill tells the agent to extract and run (" + bounded(strings.TrimSpace(l), 100) + "): its content was not audited; add the files themselves instead"
				break
			}
		}
	}
}
