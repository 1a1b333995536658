package audit

import (
	"bytes"
	"encoding/base64"
	"io"
	"strings"

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
	vars    map[string]expand.Variable
	funcs   map[string]*syntax.Stmt
	deflt   map[string]bool // names read with a default, ${x:-y}: unset unless assigned
	cfg     *expand.Config
	lines   []shellLine
	changes int // expansions that hid something, in the command being written
	depth   int
	inFunc  bool
	force   bool // every command is written out: a here-doc whose variables were expanded
	news    func(orig, text string) bool
	emitted map[string]bool // commands written out already: a function called often is scanned once
	opaque  bool            // an expansion wrote a command substitution whose output is unknown
	stmts   int
}

func newShellReader() *shellReader {
	r := &shellReader{vars: map[string]expand.Variable{}, funcs: map[string]*syntax.Stmt{}, deflt: map[string]bool{}}
	r.cfg = r.newConfig()
	r.news = func(string, string) bool { return true }
	r.emitted = map[string]bool{}
	return r
}

// newConfig returns an expansion config that reads r's variables. An
// expansion inside a substitution needs a config of its own: a config
// keeps buffers that one expansion at a time may use.
func (r *shellReader) newConfig() *expand.Config {
	return &expand.Config{Env: shellEnv{r}, CmdSubst: r.cmdSubst, ProcSubst: r.procSubst}
}

// nest enters a substitution; the returned func leaves it.
func (r *shellReader) nest() func() {
	outer := r.cfg
	r.cfg = r.newConfig()
	r.depth++
	return func() { r.cfg = outer; r.depth-- }
}

// shellEnv is the environment the expansion reads: the assignments seen;
// a variable never assigned reads as itself, $NAME, so that the rules
// still see which variable a command uses.
type shellEnv struct{ r *shellReader }

func (e shellEnv) Get(name string) expand.Variable {
	if v, ok := e.r.vars[name]; ok {
		return v
	}
	switch {
	case name == "IFS":
		return strVar(" ")
	case name == "SHELL":
		return strVar("sh")
	case strings.HasPrefix(name, "HOME"):
		return strVar("~")
	case e.r.deflt[name]:
		return expand.Variable{}
	}
	return strVar("$" + name)
}

func (e shellEnv) Each(fn func(string, expand.Variable) bool) {
	for k, v := range e.r.vars {
		if !fn(k, v) {
			return
		}
	}
}

func strVar(s string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: s}
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
		r.stmtList(c.Do, anchor)
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
	if r.changes > 0 && text != orig && (hidesCommand(orig, text) || (r.changes >= 2 || runsText.MatchString(orig)) && r.news(orig, text)) ||
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

// known counts the variables st reads that the code assigned, and the
// reads of $IFS and $SHELL, which hide a space and a shell.
func (r *shellReader) known(st *syntax.Stmt) int {
	n := 0
	count := func(node syntax.Node) bool {
		if pe, ok := node.(*syntax.ParamExp); ok && pe.Param != nil {
			name := pe.Param.Value
			if _, ok := r.vars[name]; ok || name == "IFS" || name == "SHELL" {
				n++
			}
		}
		return true
	}
	if st.Cmd != nil {
		syntax.Walk(st.Cmd, count)
	}
	for _, rd := range st.Redirs {
		if rd.Word != nil {
			syntax.Walk(rd.Word, count)
		}
	}
	return n
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
	start, end := anchor, anchor
	if anchor < 0 {
		start = r.base + int(st.Pos().Offset())
		end = r.lineEnd(st, start)
	}
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
		sub.depth, sub.stmts = r.depth+1, r.stmts
		sub.force = body != r.source(rd.Hdoc)
		if sub.read([]byte(body), 0) {
			for _, l := range sub.lines[:min(len(sub.lines), maxShellLines-len(r.lines))] {
				r.lines = append(r.lines, shellLine{start, end, l.text})
			}
			r.stmts = sub.stmts
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

// record remembers the assignments a statement makes, as the shell would.
func (r *shellReader) record(st *syntax.Stmt) {
	var as []*syntax.Assign
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			as = c.Assigns
		}
	case *syntax.DeclClause:
		as = c.Args
	}
	for _, a := range as {
		if a.Name == nil || a.Naked || a.Index != nil || len(r.vars) >= maxShellVars {
			continue
		}
		v, ok := r.value(a)
		if !ok {
			delete(r.vars, a.Name.Value)
			continue
		}
		r.vars[a.Name.Value] = v
	}
}

// value evaluates the right side of an assignment; false when it is too
// long to keep.
func (r *shellReader) value(a *syntax.Assign) (expand.Variable, bool) {
	old, had := r.vars[a.Name.Value]
	if a.Array != nil {
		var list []string
		size := 0
		for _, el := range a.Array.Elems {
			s, ok := r.literal(el.Value)
			if !ok || el.Index != nil {
				return expand.Variable{}, false
			}
			size += len(s)
			list = append(list, s)
		}
		if a.Append && had && old.Kind == expand.Indexed {
			list = append(append([]string(nil), old.List...), list...)
		}
		return expand.Variable{Set: true, Kind: expand.Indexed, List: list}, size <= maxShellValue
	}
	s, ok := r.literal(a.Value)
	if !ok {
		return expand.Variable{}, false
	}
	if a.Append && had {
		s = old.String() + s
	}
	return strVar(s), len(s) <= maxShellValue
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
	start := anchor
	if start < 0 {
		start = r.base + int(st.Pos().Offset())
	}
	end := start
	if anchor < 0 {
		end = r.lineEnd(st, start)
	}
	r.lines = append(r.lines, shellLine{start, end, text})
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

func (r *shellReader) list(stmts []*syntax.Stmt) string {
	parts := make([]string, 0, len(stmts))
	for _, st := range stmts {
		parts = append(parts, r.write(st))
	}
	return strings.Join(parts, "; ")
}

// call writes out a simple command; a call of a function defined before
// is written as the function's body, one level deep.
func (r *shellReader) call(c *syntax.CallExpr) string {
	var parts []string
	for _, a := range c.Assigns {
		parts = append(parts, r.assign(a))
	}
	if len(c.Args) > 0 && !r.inFunc {
		if body, ok := r.funcs[c.Args[0].Lit()]; ok && body != nil {
			r.changes++
			r.inFunc = true
			defer func() { r.inFunc = false }()
			inner := r.write(body)
			if blk, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 {
				inner = r.list(blk.Stmts)
			}
			return strings.Join(append(parts, inner), " ")
		}
	}
	for _, w := range c.Args {
		parts = append(parts, r.word(w))
	}
	return strings.Join(parts, " ")
}

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

// literal expands a word as the value of an assignment; a value that
// holds the output of a command the reader cannot know is unknown.
func (r *shellReader) literal(w *syntax.Word) (string, bool) {
	if !boundedWord(w) {
		return "", false
	}
	r.opaque = false
	s, err := expand.Literal(r.cfg, unescaped(w))
	return s, err == nil && !r.opaque && len(s) <= maxShellValue
}

// cmdSubst writes what a command substitution prints when its command only
// prints its arguments; otherwise it writes the command, $(...), whose
// output is unknown.
func (r *shellReader) cmdSubst(w io.Writer, cs *syntax.CmdSubst) error {
	if r.depth >= maxShellDepth {
		_, err := io.WriteString(w, r.source(cs))
		return err
	}
	defer r.nest()()
	if len(cs.Stmts) == 1 && onlyPrints(cs.Stmts[0]) {
		if out, ok := r.prints(cs.Stmts[0]); ok {
			r.changes++
			_, err := io.WriteString(w, out)
			return err
		}
	}
	r.opaque = true
	_, err := io.WriteString(w, "$("+r.list(cs.Stmts)+")")
	return err
}

func (r *shellReader) procSubst(ps *syntax.ProcSubst) (string, error) {
	if r.depth >= maxShellDepth {
		return r.source(ps), nil
	}
	defer r.nest()()
	return ps.Op.String() + r.list(ps.Stmts) + ")", nil
}

// prints returns the output of a command that only prints: printf, echo,
// `which NAME`, and those piped to a base64 decode.
func (r *shellReader) prints(st *syntax.Stmt) (string, bool) {
	if len(st.Redirs) > 0 {
		return "", false
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe || !isBase64Decode(c.Y) {
			return "", false
		}
		in, ok := r.prints(c.X)
		if !ok {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(in))
		return string(b), err == nil && printable(b)
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return "", false
		}
		var args []string
		for f, err := range expand.FieldsSeq(r.cfg, c.Args[1:]...) {
			if err != nil || len(args) > 64 {
				return "", false
			}
			args = append(args, f)
		}
		return printed(r.cfg, c.Args[0].Lit(), args)
	}
	return "", false
}

// printed is what the printing command name writes for args.
func printed(cfg *expand.Config, name string, args []string) (string, bool) {
	switch name {
	case "printf":
		if len(args) == 0 || len(args) > 64 {
			return "", false
		}
		return format(cfg, args[0], args[1:])
	case "echo":
		if len(args) > 0 && (args[0] == "-n" || args[0] == "-e") {
			args = args[1:]
		}
		return strings.Join(args, " "), true
	case "which":
		return strings.Join(args, " "), len(args) == 1
	case "command", "type":
		if len(args) != 2 || args[0] != "-v" && args[0] != "-p" {
			return "", false
		}
		return args[1], true
	}
	return "", false
}

// format is printf: the format is used again while arguments remain.
func format(cfg *expand.Config, f string, args []string) (string, bool) {
	var b strings.Builder
	for {
		out, n, err := expand.Format(cfg, f, args)
		if err != nil {
			return "", false
		}
		b.WriteString(out)
		if b.Len() > maxShellValue {
			return "", false
		}
		if n <= 0 || n >= len(args) {
			return b.String(), true
		}
		args = args[n:]
	}
}

// onlyPrints reports whether st is a command prints can write out, before
// any of its words is expanded.
func onlyPrints(st *syntax.Stmt) bool {
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe && isBase64Decode(c.Y) && onlyPrints(c.X)
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		switch c.Args[0].Lit() {
		case "printf", "echo", "which", "command", "type":
			return true
		}
	}
	return false
}

func isBase64Decode(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 || c.Args[0].Lit() != "base64" {
		return false
	}
	switch c.Args[1].Lit() {
	case "-d", "--decode", "-D":
		return true
	}
	return false
}

// parsedAssignment reads line, which starts with name=, as shell and
// returns the value the first command assigns to name, expanded with no
// variable known; false when the line does not parse or the value reads
// a variable or runs a command.
func parsedAssignment(line []byte, name string) (string, bool) {
	f := parseShell(line)
	if f == nil || len(f.Stmts) == 0 {
		return "", false
	}
	c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) == 0 || c.Assigns[0].Name == nil || c.Assigns[0].Name.Value != name || c.Assigns[0].Value == nil {
		return "", false
	}
	plain := true
	syntax.Walk(c.Assigns[0].Value, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			plain = false
		}
		return plain
	})
	if !plain {
		return "", false
	}
	v, err := expand.Literal(nil, unescaped(c.Assigns[0].Value))
	return v, err == nil && len(v) <= maxShellValue
}

// unescaped returns w with the backslashes of its unquoted parts removed,
// as the shell removes them from an assignment's value; expand.Literal
// keeps them.
func unescaped(w *syntax.Word) *syntax.Word {
	if w == nil {
		return nil
	}
	out := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok || !strings.Contains(l.Value, "\\") {
			out.Parts[i] = p
			continue
		}
		var b strings.Builder
		for j := 0; j < len(l.Value); j++ {
			if l.Value[j] == '\\' && j+1 < len(l.Value) {
				j++
			}
			b.WriteByte(l.Value[j])
		}
		cp := *l
		cp.Value = b.String()
		out.Parts[i] = &cp
	}
	return out
}

// walk is syntax.Walk that accepts a statement with no command, such as a
// lone redirection.
func walk(n syntax.Node, fn func(syntax.Node) bool) {
	if c, ok := n.(syntax.Command); ok && c == nil || n == nil {
		return
	}
	syntax.Walk(n, fn)
}
