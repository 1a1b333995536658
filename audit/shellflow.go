package audit

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A call of a function is read with its arguments bound to $1, $@ and
// the like, and the body of a for loop over a literal list once per word
// with the loop's variable bound to it: `for c in cu; do ${c}rl ...`
// reads `curl ...`. Both are bounded as the rest of the reader is.

const (
	maxCallArgs  = 32 // arguments passed into an inlined function
	maxLoopWords = 8  // words of a loop's list its body is read with

	// maxShellReread bounds the bytes of code read again: a loop's body
	// for its second and later words, a function's body at each call; so
	// that nested loops and calls cannot multiply the work of a unit.
	maxShellReread = 64 << 10
)

// callArgs returns the fields the arguments of a call expand to, at most
// maxCallArgs of them and maxShellLine bytes in all, and whether some
// were left off; an argument that does not expand reads as written.
func (r *shellReader) callArgs(words []*syntax.Word) ([]string, bool) {
	var out []string
	size := 0
	for _, w := range words {
		fields := []string{r.source(w)}
		if boundedWord(w) {
			fields = fields[:0]
			for f, err := range expand.FieldsSeq(r.cfg, w) {
				if err != nil {
					fields = []string{r.source(w)}
					break
				}
				fields = append(fields, f)
				if len(fields) > maxCallArgs {
					break
				}
			}
		}
		for _, f := range fields {
			if size += len(f); len(out) >= maxCallArgs || size > maxShellLine {
				return out, true
			}
			out = append(out, f)
		}
	}
	return out, false
}

// positional returns the value of $name in an inlined function: $@, $*,
// $# and $1... read the call's arguments; false for any other name, and
// for a position past the arguments kept when some were left off.
func (r *shellReader) positional(name string) (expand.Variable, bool) {
	switch name {
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: r.args}, true
	case "#":
		if r.argsCut {
			return expand.Variable{}, false
		}
		return strVar(strconv.Itoa(len(r.args))), true
	}
	i, err := strconv.Atoi(name)
	if err != nil || i < 1 || name[0] == '+' {
		return expand.Variable{}, false
	}
	if i <= len(r.args) {
		return strVar(r.args[i-1]), true
	}
	return expand.Variable{}, !r.argsCut
}

// loop reads the body of a for loop: once per word, up to maxLoopWords
// and within maxShellReread,
// with the variable bound to the word when the list is literal; else once
// with the variable unknown.
func (r *shellReader) loop(c *syntax.ForClause, anchor int) {
	wi, _ := c.Loop.(*syntax.WordIter)
	words, ok := r.loopWords(wi)
	if !ok {
		if wi != nil && wi.Name != nil {
			delete(r.vars, wi.Name.Value)
		}
		r.stmtList(c.Do, anchor)
		return
	}
	for i, w := range words {
		if i > 0 && (!r.reread(c) || r.stmts >= maxShellStmts) {
			return
		}
		r.vars[wi.Name.Value] = strVar(w)
		r.stmtList(c.Do, anchor)
	}
}

// loopWords returns the first words of a loop's list when every word of
// it is literal: no command or process substitution, glob, or variable
// the code did not assign; false otherwise, and for `for x; do`, which
// walks "$@".
func (r *shellReader) loopWords(wi *syntax.WordIter) ([]string, bool) {
	if wi == nil || wi.Name == nil || !wi.InPos.IsValid() || len(wi.Items) == 0 {
		return nil, false
	}
	if _, had := r.vars[wi.Name.Value]; !had && len(r.vars) >= maxShellVars {
		return nil, false
	}
	for _, w := range wi.Items {
		if !r.literalParts(w.Parts, false) || !boundedWord(w) {
			return nil, false
		}
	}
	var out []string
	r.opaque = false
	for _, w := range wi.Items {
		for f, err := range expand.FieldsSeq(r.cfg, w) {
			if err != nil || r.opaque || len(f) > maxShellValue {
				return nil, false
			}
			if out = append(out, f); len(out) == maxLoopWords {
				return out, true
			}
		}
	}
	return out, true
}

// literalParts reports whether word parts expand to what the code wrote
// or assigned: quoted text, unquoted text with no glob, and variables the
// code assigned.
func (r *shellReader) literalParts(parts []syntax.WordPart, quoted bool) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && strings.ContainsAny(p.Value, "*?[") {
				return false
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !r.literalParts(p.Parts, true) {
				return false
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Excl || p.Names != 0 {
				return false
			}
			v, ok := r.vars[p.Param.Value]
			if !ok || !quoted && strings.ContainsAny(v.String(), "*?[") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reread reports whether the bytes of n may be read again within
// maxShellReread, and counts them when they may.
func (r *shellReader) reread(n syntax.Node) bool {
	size := int(n.End().Offset()) - int(n.Pos().Offset())
	if size < 0 || r.rereads+size > maxShellReread {
		return false
	}
	r.rereads += size
	return true
}
