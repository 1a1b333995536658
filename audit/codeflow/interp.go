package codeflow

import (
	"errors"
	"strings"
)

// Bounds of the interpretation of one skill's code.
const (
	maxSteps     = 2_000_000 // nodes evaluated in all
	maxCallDepth = 12        // nested calls of the skill's own functions and callbacks followed
	maxFnRuns    = 6         // times one function's body is read
	maxMissed    = 4096      // attribute names remembered as read before they were set
	maxFlows     = 200
	maxExecDepth = 2 // code built in a string and run with exec or eval, read again
)

// fnDef is a function a skill defines.
type fnDef struct {
	name   string
	unit   int
	lang   Lang
	params []string
	body   *node // a block, or an expression for a lambda or arrow
	expr   bool  // body is an expression whose value is returned
	runs   int
	env    *scope // where a function made by an expression was made, whose names it sees
}

// scope holds the variables of a module or a call.
type scope struct {
	vars   map[string]value
	parent *scope
}

func newScope(parent *scope) *scope { return &scope{vars: map[string]value{}, parent: parent} }

func (s *scope) get(name string) (value, bool) {
	for c := s; c != nil; c = c.parent {
		if v, ok := c.vars[name]; ok {
			return v, true
		}
	}
	return value{}, false
}

// set binds name; data that was sensitive or fetched stays so, since the
// reading does not know which branch ran.
func (s *scope) set(name string, v value) {
	for c := s; c != nil; c = c.parent {
		if _, ok := c.vars[name]; ok {
			s = c
			break
		}
	}
	if old, ok := s.vars[name]; ok && old.t != 0 && v.t&old.t != old.t {
		merged := join(old, v)
		if v.kind != vData {
			v.t, v.from = merged.t, merged.from
		} else {
			v = merged
		}
	}
	s.vars[name] = v
}

// unitState is one unit as it is read.
type unitState struct {
	Unit
	root    *node
	globals *scope
	attrs   map[string]value // attributes set anywhere: self.token, config.url
}

// pyReader and jsReader are the interpreter reading one language: that language's
// statements, expressions and library calls, over the state and the sinks interp shares.
type (
	pyReader struct{ *interp }
	jsReader struct{ *interp }
)

// interp reads the units of one skill.
type interp struct {
	units []*unitState
	given int                 // the units Analyze was given; those after them are code read from strings
	fns   map[string][]*fnDef // by bare name, across units
	order []*fnDef            // every function, in the order the units define them
	defAt map[*node]*fnDef    // functions by the node that defines them
	out   []Flow
	seen  map[[3]int]bool
	steps int
	depth int
	cur   int // the unit being read
	exec  int // depth of code read from a string

	returns  []*value // what the functions being read return, innermost last
	returned []*bool

	// anchor is the call that ran code built in a string, and anchorUnit its unit:
	// flows in that code are reported there.
	anchor     *node
	anchorUnit int

	dl []string // paths fetched content was saved to
	// secretFiles are names of files other code of the skill writes secrets into.
	secretFiles []string
	later       []func()        // callbacks of connections, called once the statement is read
	missed      map[string]bool // attributes read before any code set them
}

func newInterp(units []Unit) *interp {
	in := &interp{fns: map[string][]*fnDef{}, seen: map[[3]int]bool{}, defAt: map[*node]*fnDef{}, missed: map[string]bool{}}
	for _, u := range units {
		in.units = append(in.units, &unitState{Unit: u, globals: newScope(nil), attrs: map[string]value{}})
	}
	return in
}

// load parses every unit and collects the functions they define.
func (in *interp) load() error {
	in.given = len(in.units)
	for i, u := range in.units {
		root, err := parse(u.Lang, u.Code)
		if errors.Is(err, errTooCostly) {
			in.out = append(in.out, Flow{Kind: Unread, Unit: i, End: min(len(u.Code), 1)})
			root = &node{kind: "module"}
		} else if err != nil {
			return err
		}
		u.root = root
		in.collectFns(i, root, 0)
	}
	return nil
}

// run reads each unit's top level, then every function no call reached,
// with unknown arguments, for the flows inside it; twice when an attribute
// was read before the code that sets it.
func (in *interp) run() {
	in.pass()
	if in.lateAttr() {
		in.pass() // attributes one method sets, read by one that ran before it
	}
}

// attr looks up an attribute set anywhere in the current unit, and remembers a miss.
func (in *interp) attr(name string) (value, bool) {
	u := in.units[in.cur]
	v, ok := u.attrs[name]
	if !ok && len(in.missed) < maxMissed {
		in.missed[name] = true
	}
	return v, ok
}

// lateAttr reports whether an attribute was read before the code that sets it ran.
func (in *interp) lateAttr() bool {
	for _, u := range in.units {
		for name := range u.attrs {
			if in.missed[name] {
				return true
			}
		}
	}
	return false
}

// pass reads every unit and every function once.
func (in *interp) pass() {
	for _, f := range in.order {
		f.runs = 0
	}
	for i, u := range in.units[:in.given] { // not the units read from strings: their calls read them
		in.cur = i
		in.block(u.root, u.globals)
	}
	for _, f := range in.order {
		if f.runs == 0 {
			in.cur = f.unit
			in.call(f, nil, nil)
		}
	}
}

func (in *interp) src() []byte { return in.units[in.cur].Code }

func (in *interp) textOf(n *node) string { return n.text(in.src()) }

// step counts one node read and reports whether the budget allows it.
func (in *interp) step() bool {
	in.steps++
	return in.steps <= maxSteps
}

// collectFns records the functions defined under n.
func (in *interp) collectFns(unit int, n *node, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	lang := in.units[unit].Lang
	if f := fnOf(lang, n, in.units[unit].Code); f != nil {
		f.unit = unit
		in.fns[f.name] = append(in.fns[f.name], f)
		in.order = append(in.order, f)
		in.defAt[n] = f
	}
	for _, k := range n.kids {
		in.collectFns(unit, k, depth+1)
	}
}

// fnOf returns the function n defines, if it is a named definition.
func fnOf(lang Lang, n *node, src []byte) *fnDef {
	if lang == Python {
		return pyFnOf(n, src)
	}
	return jsFnOf(n, src)
}

// defined notes where a named function is defined: one defined inside
// another sees the names of the call it was defined in.
func (in *interp) defined(n *node, sc *scope) {
	if f := in.defAt[n]; f != nil && sc != in.units[in.cur].globals {
		f.env = sc
	}
}

// call reads f's body with args bound to its parameters and returns what
// it returns.
func (in *interp) call(f *fnDef, args []value, kw map[string]value) value {
	if f.runs >= maxFnRuns || in.depth >= maxCallDepth {
		return join(joinAll(args), value{s: unknown})
	}
	f.runs++
	in.depth++
	saved := in.cur
	in.cur = f.unit
	defer func() { in.depth--; in.cur = saved }()
	outer := in.units[f.unit].globals
	if f.env != nil {
		outer = f.env
	}
	sc := newScope(outer)
	for i, p := range f.params {
		v := unknownValue()
		if i < len(args) {
			v = args[i]
		}
		if a, ok := kw[p]; ok {
			v = a
		}
		sc.vars[p] = v
	}
	if f.expr {
		return in.expr(f.body, sc)
	}
	ret := value{s: unknown}
	var got bool
	in.returns = append(in.returns, &ret)
	in.returned = append(in.returned, &got)
	in.block(f.body, sc)
	in.returns = in.returns[:len(in.returns)-1]
	in.returned = in.returned[:len(in.returned)-1]
	return ret
}

// ret records a value a function returns.
func (in *interp) ret(v value) {
	if len(in.returns) == 0 {
		return
	}
	r, got := in.returns[len(in.returns)-1], in.returned[len(in.returned)-1]
	if !*got {
		*r, *got = v, true
		return
	}
	*r = join(*r, v)
}

func joinAll(vs []value) value {
	out := value{s: unknown}
	for _, v := range vs {
		out = join(out, v)
	}
	return out
}

// block reads the statements of n in order.
func (in *interp) block(n *node, sc *scope) {
	if n == nil {
		return
	}
	if in.units[in.cur].Lang == Python {
		pyReader{in}.pyBlock(n, sc)
		return
	}
	jsReader{in}.jsBlock(n, sc)
}

// expr evaluates an expression in the current unit's language.
func (in *interp) expr(n *node, sc *scope) value {
	if in.units[in.cur].Lang == Python {
		return pyReader{in}.pyExpr(n, sc)
	}
	return jsReader{in}.jsExpr(n, sc)
}

// lookupFn returns the skill's function of a bare or dotted name.
func (in *interp) lookupFn(name string) *fnDef {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	defs := in.fns[name]
	if len(defs) == 0 {
		return nil
	}
	for _, f := range defs {
		if f.unit == in.cur {
			return f
		}
	}
	return defs[0]
}

// report records a flow at n, once per place and kind.
func (in *interp) report(f Flow, n *node) {
	if len(in.out) >= maxFlows || n == nil {
		return
	}
	f.Unit, f.Start, f.End = in.cur, n.start, n.end
	if in.anchor != nil {
		f.Unit, f.Start, f.End = in.anchorUnit, in.anchor.start, in.anchor.end
	}
	k := [3]int{f.Unit, f.Start, int(f.Kind)}
	if in.seen[k] {
		return
	}
	in.seen[k] = true
	in.out = append(in.out, f)
}
