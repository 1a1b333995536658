package audit

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

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

// Get returns the value of name: in an inlined function, the argument of
// the call at that position; the one assigned, a shell default for
// $IFS, $SHELL and $HOME, or the name itself, $NAME, when never assigned.
func (e shellEnv) Get(name string) expand.Variable {
	if e.r.inFunc {
		if v, ok := e.r.positional(name); ok {
			return v
		}
	}
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

// Each calls fn on each variable assigned, until fn returns false.
func (e shellEnv) Each(fn func(string, expand.Variable) bool) {
	for k, v := range e.r.vars {
		if !fn(k, v) {
			return
		}
	}
}

// strVar returns a set string variable holding s.
func strVar(s string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: s}
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
