package audit

import (
	"bytes"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The shell code of a skill is parsed as bash parses it, and each of its
// commands is written out as the shell would see it after quote removal
// and variable expansion: `a=cu; b=rl; $a$b x | sh` reads `curl x | sh`.
// Nothing is run. A command substitution's output is unknown, except for
// the few commands that only print their arguments (printf, echo, a
// base64 decode of them), which the shell writes out the same everywhere.

const (
	maxShellParse = 256 << 10 // bytes of one shell span parsed
	maxShellDepth = 8         // nesting of substitutions and here-docs followed
	maxShellStmts = 4096      // statements read per unit
	maxShellLine  = 4096      // bytes of one written-out command
)

// shellLine is a command written out, over the bytes of the unit it came from.
type shellLine struct {
	start, end int
	text       string
}

// shellReader walks parsed shell code: it remembers the assignments and
// functions seen, in order, and writes out each command.
type shellReader struct {
	src     []byte // the span parsed
	unit    []byte // the whole text, where assignments are looked for
	base    int    // offset of src in the unit
	lineAt  []int  // when set, the unit offset each line of src came from
	srcNL   []int  // offsets of the newlines of src, when lineAt is set
	vars    map[string]expand.Variable
	funcs   map[string]*syntax.Stmt
	deflt   map[string]bool // names read with a default, ${x:-y}: unset unless assigned
	cfg     *expand.Config
	lines   []shellLine
	changes int // expansions that hid something, in the command being written
	depth   int
	inFunc  bool
	args    []string // the arguments of the call inlined, while inFunc
	argsCut bool     // some arguments of that call were left off
	force   bool     // every command is written out: a here-doc whose variables were expanded
	news    func(orig, text string) bool
	emitted map[string]bool // commands written out already: a function called often is scanned once
	opaque  bool            // an expansion wrote a command substitution whose output is unknown
	stmts   int
	rereads int // bytes of loop and function bodies read again
}

// newShellReader returns a reader with nothing assigned that writes out
// every command that changed.
func newShellReader() *shellReader {
	r := &shellReader{vars: map[string]expand.Variable{}, funcs: map[string]*syntax.Stmt{}, deflt: map[string]bool{}}
	r.cfg = r.newConfig()
	r.news = func(string, string) bool { return true }
	r.emitted = map[string]bool{}
	return r
}

// parseShell parses src as bash; nil when it is not valid bash.
func parseShell(src []byte) *syntax.File {
	if len(src) > maxShellParse {
		return nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src), "")
	if err != nil {
		return nil
	}
	return f
}

// read writes out the commands of src, a span of the unit at base, and
// reports whether src parsed; on false nothing was read.
func (r *shellReader) read(src []byte, base int) bool {
	f := parseShell(src)
	if f == nil {
		return false
	}
	r.src, r.base = src, base
	if r.unit == nil {
		r.unit = src
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Exp != nil && pe.Param != nil && pe.Exp.Word != nil && len(pe.Exp.Word.Parts) > 0 {
			r.deflt[pe.Param.Value] = true
		}
		return true
	})
	r.stmtList(f.Stmts, -1)
	return true
}

// stmtList writes out each statement of a list; anchor >= 0 places the
// lines of code read from a here-doc on the command that reads it.
func (r *shellReader) stmtList(stmts []*syntax.Stmt, anchor int) {
	for _, st := range stmts {
		if r.stmts++; r.stmts > maxShellStmts {
			return
		}
		r.stmt(st, anchor)
	}
}

// stmt writes out one statement, or the statements inside a compound one.
func (r *shellReader) stmt(st *syntax.Stmt, anchor int) {
	switch c := st.Cmd.(type) {
	case *syntax.FuncDecl:
		if c.Name != nil {
			r.funcs[c.Name.Value] = c.Body
		}
		r.stmt(c.Body, anchor)
		return
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			r.stmtList(c.Cond, anchor)
			r.stmtList(c.Then, anchor)
		}
		return
	case *syntax.WhileClause:
		r.stmtList(c.Cond, anchor)
		r.stmtList(c.Do, anchor)
		return
	case *syntax.ForClause:
		r.loop(c, anchor)
		return
	case *syntax.CaseClause:
		for _, it := range c.Items {
			r.stmtList(it.Stmts, anchor)
		}
		return
	case *syntax.Block:
		if len(st.Redirs) == 0 {
			r.stmtList(c.Stmts, anchor)
			return
		}
	}
	if !r.force && !r.worth(st) {
		r.record(st)
		return
	}
	r.inner(st, anchor)
	r.changes = r.known(st)
	text := r.write(st)
	r.record(st)
	orig := r.source(st)
	if r.force && text != "" {
		r.emit(st, anchor, text)
		return
	}
	if r.changes > 0 && text != orig && (hidesCommand(orig, text) || (r.changes >= 2 || runsText.MatchString(orig) || showsSecret(orig, text)) && r.news(orig, text)) ||
		r.changes == 0 && text != orig && hidesCommand(orig, text) {
		r.emit(st, anchor, text)
	}
}

// worth reports whether writing st out may show anything: it holds an
// expansion that may hide a word (worthParsing), or calls a function.
func (r *shellReader) worth(st *syntax.Stmt) bool {
	s, e := int(st.Pos().Offset()), int(st.End().Offset())
	if s < 0 || e > len(r.src) || s > e || worthParsing(r.src[s:e], r.unit) {
		return true
	}
	if len(r.funcs) == 0 {
		return false
	}
	calls := false
	syntax.Walk(st, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && r.funcs[c.Args[0].Lit()] != nil {
			calls = true
		}
		return !calls
	})
	return calls
}

// inner reads the commands inside the substitutions of st, and the code
// of here-docs fed to a shell, as lines of their own.
func (r *shellReader) inner(st *syntax.Stmt, anchor int) {
	if r.depth >= maxShellDepth {
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	walk(st.Cmd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			r.stmtList(n.Stmts, anchor)
			return false
		case *syntax.ProcSubst:
			r.stmtList(n.Stmts, anchor)
			return false
		}
		return true
	})
	if runsShell(st) {
		r.hereDocs(st, anchor)
	}
}

// hereDocs reads the here-docs of st, which a shell runs, as shell code;
// their lines are placed on st, or on anchor when st came from one.
func (r *shellReader) hereDocs(st *syntax.Stmt, anchor int) {
	start, end := r.place(st, anchor)
	for _, rd := range st.Redirs {
		if rd.Hdoc == nil {
			continue
		}
		body, err := expand.Document(r.cfg, rd.Hdoc)
		if err != nil {
			continue
		}
		sub := newShellReader()
		sub.vars, sub.funcs, sub.deflt, sub.news, sub.emitted = r.vars, r.funcs, r.deflt, r.news, r.emitted
		sub.unit = []byte(body)
		sub.depth, sub.stmts, sub.rereads = r.depth+1, r.stmts, r.rereads
		sub.force = body != r.source(rd.Hdoc)
		if sub.read([]byte(body), 0) {
			for _, l := range sub.lines[:min(len(sub.lines), maxShellLines-len(r.lines))] {
				r.lines = append(r.lines, shellLine{start, end, l.text})
			}
			r.stmts, r.rereads = sub.stmts, sub.rereads
		}
	}
}

// runsShell reports whether st is a shell reading its standard input.
func runsShell(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch c.Args[0].Lit() {
	case "sh", "bash", "zsh", "dash", "ksh", "source", ".":
		return true
	}
	return false
}

// walk is syntax.Walk that accepts a statement with no command, such as a
// lone redirection.
func walk(n syntax.Node, fn func(syntax.Node) bool) {
	if c, ok := n.(syntax.Command); ok && c == nil || n == nil {
		return
	}
	syntax.Walk(n, fn)
}
