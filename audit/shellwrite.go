package audit

import (
	"bytes"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// write returns a statement as the shell would see it once expanded.
func (r *shellReader) write(st *syntax.Stmt) string {
	var b strings.Builder
	if st.Negated {
		b.WriteString("! ")
	}
	b.WriteString(r.command(st))
	for _, rd := range st.Redirs {
		b.WriteByte(' ')
		if rd.N != nil {
			b.WriteString(rd.N.Value)
		}
		b.WriteString(rd.Op.String())
		if rd.Word != nil {
			b.WriteString(r.word(rd.Word))
		}
	}
	if st.Background {
		b.WriteString(" &")
	}
	return b.String()
}

// command writes out the command of st, without its redirections.
func (r *shellReader) command(st *syntax.Stmt) string {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		return r.call(c)
	case *syntax.BinaryCmd:
		return r.write(c.X) + " " + c.Op.String() + " " + r.write(c.Y)
	case *syntax.Block:
		return "{ " + r.list(c.Stmts) + "; }"
	case *syntax.Subshell:
		return "( " + r.list(c.Stmts) + " )"
	case *syntax.DeclClause:
		var b strings.Builder
		b.WriteString(c.Variant.Value)
		for _, a := range c.Args {
			b.WriteString(" " + r.assign(a))
		}
		return b.String()
	case nil:
		return ""
	}
	return r.source(st.Cmd)
}

// list writes out statements joined by semicolons.
func (r *shellReader) list(stmts []*syntax.Stmt) string {
	parts := make([]string, 0, len(stmts))
	for _, st := range stmts {
		parts = append(parts, r.write(st))
	}
	return strings.Join(parts, "; ")
}

// call writes out a simple command; a call of a function defined before
// is written as the function's body, one level deep, with the call's
// arguments as its $1, $@ and the like, while maxShellReread allows.
func (r *shellReader) call(c *syntax.CallExpr) string {
	var parts []string
	for _, a := range c.Assigns {
		parts = append(parts, r.assign(a))
	}
	if len(c.Args) > 0 && !r.inFunc {
		if body, ok := r.funcs[c.Args[0].Lit()]; ok && body != nil && r.reread(body) {
			r.changes++
			r.args, r.argsCut = r.callArgs(c.Args[1:])
			r.inFunc = true
			defer func() { r.inFunc, r.args, r.argsCut = false, nil, false }()
			var inner string
			if blk, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 {
				inner = r.list(blk.Stmts)
			} else {
				inner = r.write(body)
			}
			return strings.Join(append(parts, inner), " ")
		}
	}
	for _, w := range c.Args {
		parts = append(parts, r.word(w))
	}
	return strings.Join(parts, " ")
}

// assign writes out an assignment with its value expanded.
func (r *shellReader) assign(a *syntax.Assign) string {
	if a.Name == nil {
		return r.word(a.Value)
	}
	if a.Naked {
		return a.Name.Value
	}
	if a.Array != nil {
		var els []string
		for _, el := range a.Array.Elems {
			els = append(els, r.word(el.Value))
		}
		return a.Name.Value + "=(" + strings.Join(els, " ") + ")"
	}
	return a.Name.Value + "=" + r.word(a.Value)
}

// emit keeps the written-out command over the first line of st.
func (r *shellReader) emit(st *syntax.Stmt, anchor int, text string) {
	if len(r.lines) >= maxShellLines || r.emitted[text] {
		return
	}
	if len(text) > maxShellLine {
		text = text[:maxShellLine]
	}
	r.emitted[text] = true
	start, end := r.place(st, anchor)
	r.lines = append(r.lines, shellLine{start, end, text})
}

// place returns the range of the unit the lines of st go on: anchor when
// st came from a here-doc, else the first line of st; in a span whose
// lines were moved (lineAt), the unit's line that src line came from.
func (r *shellReader) place(st *syntax.Stmt, anchor int) (int, int) {
	if anchor >= 0 {
		return anchor, anchor
	}
	off := int(st.Pos().Offset())
	if r.lineAt != nil {
		i := min(sort.SearchInts(r.srcNL, off), len(r.lineAt)-1)
		start := r.lineAt[i]
		return start, lineEndAt(r.unit, start)
	}
	start := r.base + off
	return start, r.lineEnd(st, start)
}

// lineEnd returns where the first line of st ends, in the unit.
func (r *shellReader) lineEnd(st *syntax.Stmt, start int) int {
	s, e := start-r.base, min(int(st.End().Offset()), len(r.src))
	if s < 0 || s > e {
		return start
	}
	if nl := bytes.IndexByte(r.src[s:e], '\n'); nl >= 0 {
		return start + nl
	}
	return r.base + e
}

// source returns the text of a node as written.
func (r *shellReader) source(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(r.src) || s > e {
		return ""
	}
	return string(r.src[s:e])
}

// secretVarRe is a variable named like a secret.
var secretVarRe = lazy(`\$\{?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|COOKIE)`)

// showsSecret reports whether writing a command out shows a variable named like a secret
// that its source hides behind another name, as `k=$GITHUB_TOKEN; curl -d "t=$k" …` does:
// one substitution is then enough to read the command again.
func showsSecret(orig, text string) bool {
	return secretVarRe.MatchString(text) && !secretVarRe.MatchString(orig)
}
