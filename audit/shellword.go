package audit

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word expands a word as the shell would, without globbing or running
// anything, its fields joined by spaces; when it cannot, the word reads
// as written.
func (r *shellReader) word(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if !boundedWord(w) {
		return r.source(w)
	}
	var b strings.Builder
	for f, err := range expand.FieldsSeq(r.cfg, w) {
		if err != nil {
			return r.source(w)
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
		if b.Len() > maxShellLine {
			break
		}
	}
	return b.String()
}

// boundedWord reports whether expanding w costs time and memory in
// proportion to the values it reads: a replacement ${x//p/r} whose r
// expands again multiplies them, so such a word is read as written.
func boundedWord(w *syntax.Word) bool {
	if w == nil {
		return true
	}
	ok, repls := true, 0
	syntax.Walk(w, func(n syntax.Node) bool {
		pe, isPE := n.(*syntax.ParamExp)
		if !isPE || pe.Repl == nil {
			return ok
		}
		if repls++; repls > 4 {
			ok = false
		}
		if pe.Repl.With != nil {
			for _, p := range pe.Repl.With.Parts {
				if _, lit := p.(*syntax.Lit); !lit {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}
