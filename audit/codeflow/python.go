package codeflow

import (
	"strings"
)

// pyFnOf returns the function a Python definition defines; a method's
// self or cls is not one of the parameters its callers pass.
func pyFnOf(n *node, src []byte) *fnDef {
	if n.kind == "class_definition" {
		return pyClassOf(n, src)
	}
	if n.kind != "function_definition" {
		return nil
	}
	f := &fnDef{name: n.child("name").text(src), lang: Python, body: n.child("body")}
	f.params = pyParams(n.child("parameters"), src)
	if len(f.params) > 0 && (f.params[0] == "self" || f.params[0] == "cls") {
		f.params = f.params[1:]
	}
	return f
}

// pyClassOf returns a class as the function that makes an instance: its
// __init__, or its body when it has none.
func pyClassOf(n *node, src []byte) *fnDef {
	body := n.child("body")
	f := &fnDef{name: n.child("name").text(src), lang: Python, body: body}
	if body == nil {
		return nil
	}
	for _, k := range body.kids {
		if k.kind == "function_definition" && k.child("name").text(src) == "__init__" {
			init := pyFnOf(k, src)
			f.params, f.body = init.params, init.body
		}
	}
	return f
}

// pyParams returns the names of a parameter list.
func pyParams(ps *node, src []byte) []string {
	if ps == nil {
		return nil
	}
	var out []string
	for _, p := range ps.kids {
		switch p.kind {
		case "identifier":
			out = append(out, p.text(src))
		case "default_parameter", "typed_default_parameter":
			out = append(out, p.child("name").text(src))
		case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
			out = append(out, p.first("identifier").text(src))
		}
	}
	return out
}

func (in pyReader) pyBlock(n *node, sc *scope) {
	if n == nil {
		return
	}
	if n.kind != "module" && n.kind != "block" {
		in.pyStmt(n, sc)
		return
	}
	for _, k := range n.kids {
		if !in.step() {
			return
		}
		in.pyStmt(k, sc)
	}
}

// pyStmt reads one statement.
func (in pyReader) pyStmt(n *node, sc *scope) {
	switch n.kind {
	case "function_definition":
		in.defined(n, sc)
	case "comment", "pass_statement", "global_statement", "nonlocal_statement":
	case "decorated_definition":
		if d := n.child("definition"); d != nil && d.kind == "class_definition" {
			in.pyStmt(d, sc)
		}
	case "class_definition":
		cs := newScope(sc) // class attributes, read as Config.token or self.token
		in.pyBlock(n.child("body"), cs)
		attrs := in.units[in.cur].attrs
		for name, v := range cs.vars {
			if old, ok := attrs[name]; ok {
				v = mergeKeep(old, v)
			}
			attrs[name] = v
		}
	case "block", "module":
		in.pyBlock(n, sc)
	case "return_statement":
		v := value{s: unknown}
		for _, k := range n.kids {
			v = in.pyExpr(k, sc)
		}
		in.ret(v)
	case "if_statement", "elif_clause":
		in.pyExpr(n.child("condition"), sc)
		in.pyBlock(n.child("consequence"), sc)
		for _, alt := range n.children("alternative") {
			in.pyStmt(alt, sc)
		}
	case "else_clause", "finally_clause", "except_clause", "while_statement":
		for _, k := range n.kids {
			if k.kind == "block" {
				in.pyBlock(k, sc)
			} else {
				in.pyExpr(k, sc)
			}
		}
	case "for_statement":
		it := in.pyExpr(n.child("right"), sc)
		in.pyBind(n.child("left"), element(it), sc)
		in.pyBlock(n.child("body"), sc)
		in.pyBlock(n.child("alternative"), sc)
	case "try_statement":
		for _, k := range n.kids {
			in.pyStmt(k, sc)
		}
	case "with_statement":
		in.pyWith(n, sc)
	case "import_statement", "import_from_statement":
		in.pyImport(n, sc)
	default:
		for _, k := range n.kids {
			in.pyExpr(k, sc)
		}
	}
}

// pyWith binds the targets of a with statement and reads its body.
func (in pyReader) pyWith(n *node, sc *scope) {
	for _, c := range n.kids {
		if c.kind == "with_clause" {
			for _, item := range c.kids {
				v := item.child("value")
				if v != nil && v.kind == "as_pattern" && len(v.kids) > 0 {
					val := in.pyExpr(v.kids[0], sc)
					if a := v.child("alias"); a != nil && len(a.kids) > 0 {
						in.pyBind(a.kids[0], val, sc)
					}
					continue
				}
				in.pyExpr(v, sc)
			}
		}
	}
	in.pyBlock(n.child("body"), sc)
}

// pyImport binds imported names to the modules and names they stand for.
func (in pyReader) pyImport(n *node, sc *scope) {
	mod := ""
	if m := n.child("module_name"); m != nil {
		mod = in.textOf(m) + "."
	}
	for _, k := range n.children("name") {
		name, alias := in.textOf(k), ""
		if k.kind == "aliased_import" {
			name, alias = in.textOf(k.child("name")), in.textOf(k.child("alias"))
		}
		switch {
		case alias != "":
			sc.vars[alias] = value{kind: vModule, s: mod + name}
		case mod != "":
			sc.vars[name] = value{kind: vModule, s: mod + name}
		default:
			first, _, _ := strings.Cut(name, ".")
			sc.vars[first] = value{kind: vModule, s: first}
		}
	}
}

// pyBind assigns v to a target: a name, an attribute, an item of a
// container (which then holds v's data) or a pattern of several.
func (in pyReader) pyBind(t *node, v value, sc *scope) {
	if t == nil {
		return
	}
	switch t.kind {
	case "identifier":
		sc.set(in.textOf(t), v)
	case "attribute":
		attr := in.textOf(t.child("attribute"))
		u := in.units[in.cur]
		if old, ok := u.attrs[attr]; ok {
			v = mergeKeep(old, v)
		}
		u.attrs[attr] = v
	case "subscript":
		if base := t.child("value"); base != nil && base.kind == "identifier" {
			name := in.textOf(base)
			old, _ := sc.get(name)
			if !old.environ {
				sc.set(name, mergeKeep(old, v))
			}
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list":
		for i, k := range t.kids {
			in.pyBind(k, itemAt(v, i), sc)
		}
	case "list_splat_pattern":
		for _, k := range t.kids {
			in.pyBind(k, v, sc)
		}
	}
}

// pyExpr evaluates one expression.
func (in pyReader) pyExpr(n *node, sc *scope) value {
	if n == nil || !in.step() {
		return unknownValue()
	}
	switch n.kind {
	case "identifier":
		return in.pyName(in.textOf(n), sc)
	case "attribute":
		return in.pyAttr(n, sc)
	case "subscript":
		return in.pySubscript(n, sc)
	case "call":
		return in.pyCall(n, sc)
	case "string":
		return in.pyString(n, sc)
	case "concatenated_string":
		v := dataOf("")
		for _, k := range n.kids {
			v = concat(v, in.pyExpr(k, sc))
		}
		return v
	case "integer", "float", "true", "false", "none":
		return dataOf(in.textOf(n))
	case "binary_operator":
		return in.pyBinary(n, sc)
	case "assignment":
		if r := n.child("right"); r != nil {
			v := in.pyExpr(r, sc)
			in.pyAssign(n.child("left"), r, v, sc)
			return v
		}
		return unknownValue()
	case "augmented_assignment":
		l, r := in.pyExpr(n.child("left"), sc), in.pyExpr(n.child("right"), sc)
		v := join(l, r)
		if strings.HasPrefix(strings.TrimSpace(string(in.src()[n.child("left").end:n.child("right").start])), "+") {
			v = concat(l, r)
		}
		in.pyBind(n.child("left"), v, sc)
		return v
	case "named_expression":
		v := in.pyExpr(n.child("value"), sc)
		in.pyBind(n.child("name"), v, sc)
		return v
	case "lambda":
		f := &fnDef{lang: Python, unit: in.cur, body: n.child("body"), expr: true, env: sc}
		f.params = pyParams(n.child("parameters"), in.src())
		return value{kind: vFunc, fn: f, s: unknown}
	case "list", "tuple", "set", "expression_list":
		return in.seq(n, sc, in.pyExpr)
	case "dictionary":
		return in.dict(n, sc, in.pyExpr)
	case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
		return in.pyComprehension(n, sc)
	case "keyword_argument":
		return in.pyExpr(n.child("value"), sc)
	}
	v := value{s: unknown}
	for _, k := range n.kids {
		v = join(v, in.pyExpr(k, sc))
	}
	if len(n.kids) == 1 && (n.kind == "parenthesized_expression" || n.kind == "await" || n.kind == "interpolation") {
		return in.pyExpr(n.kids[0], sc)
	}
	return v
}

// pyAssign binds an assignment, item by item when both sides are lists.
func (in pyReader) pyAssign(left, right *node, v value, sc *scope) {
	if left == nil {
		return
	}
	if isPySeq(left) && isPySeq(right) && len(left.kids) == len(right.kids) {
		for i := range left.kids {
			in.pyBind(left.kids[i], itemAt(v, i), sc)
		}
		return
	}
	in.pyBind(left, v, sc)
}

func isPySeq(n *node) bool {
	switch n.kind {
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list":
		return true
	}
	return false
}

// pyName is the value of a name: a variable, a function of the skill, or
// a module or builtin named by it.
func (in pyReader) pyName(name string, sc *scope) value {
	if v, ok := sc.get(name); ok {
		return v
	}
	if f := in.lookupFn(name); f != nil {
		return value{kind: vFunc, fn: f, s: unknown}
	}
	return value{kind: vModule, s: name}
}

// pyAttr is obj.attr read as a value.
func (in pyReader) pyAttr(n *node, sc *scope) value {
	obj := in.pyExpr(n.child("object"), sc)
	attr := in.textOf(n.child("attribute"))
	if obj.kind == vModule {
		q := obj.s + "." + attr
		if q == "os.environ" || q == "posix.environ" {
			return environ(q)
		}
		if v, ok := in.attr(attr); ok && !knownModule(obj.s) {
			return v
		}
		return value{kind: vModule, s: q}
	}
	if v, ok := in.attr(attr); ok && obj.t == 0 {
		return v
	}
	if obj.kind == vClient || obj.kind == vFile {
		return obj
	}
	return derived(obj)
}

// pySubscript is base[index]: an environment variable read by name, a
// string reversed by [::-1], or an item of a container.
func (in pyReader) pySubscript(n *node, sc *scope) value {
	base := in.pyExpr(n.child("value"), sc)
	idx := n.child("subscript")
	iv := in.pyExpr(idx, sc)
	switch {
	case base.environ && iv.known():
		return envValue(iv.s, in.textOf(n))
	case base.environ:
		return wholeEnv(in.textOf(n))
	case idx != nil && idx.kind == "slice" && strings.ReplaceAll(in.textOf(idx), " ", "") == "::-1" && base.known():
		v := base
		v.s, v.built, v.hidden = reverse(base.s), true, true
		return v
	}
	return derived(base)
}

// pyBinary is a binary operation: + joins strings, / joins paths, %
// formats.
func (in pyReader) pyBinary(n *node, sc *scope) value {
	l, r := in.pyExpr(n.child("left"), sc), in.pyExpr(n.child("right"), sc)
	op := ""
	if ln, rn := n.child("left"), n.child("right"); ln != nil && rn != nil && ln.end <= rn.start {
		op = strings.TrimSpace(string(in.src()[ln.end:rn.start]))
	}
	switch op {
	case "+":
		return concat(l, r)
	case "/":
		if l.kind == vData && r.kind == vData && l.s != "" && !isNumber(l.s) {
			return concat(concat(l, dataOf("/")), r)
		}
	case "%":
		if l.known() {
			v := join(l, r)
			v.s, v.built = percent(l.s, r), true
			return v
		}
	}
	return join(l, r)
}

func isNumber(s string) bool {
	return strings.Trim(s, "0123456789.-+_eExXoObBjJ") == ""
}

// pyString is a string literal: its text with escapes decoded, and the
// values of an f-string's fields in place.
func (in pyReader) pyString(n *node, sc *scope) value {
	raw := false
	if st := n.first("string_start"); st != nil {
		raw = strings.ContainsAny(in.textOf(st), "rR")
	}
	v := dataOf("")
	for _, k := range n.kids {
		switch k.kind {
		case "string_content":
			v = appendText(v, in.pyContent(k, raw))
		case "escape_sequence":
			v = appendText(v, pyEscape(in.textOf(k)))
			v.built = true
		case "interpolation":
			v = concat(v, in.pyExpr(k.first("expression"), sc))
			if len(k.kids) > 0 {
				v = concat(v, in.pyExpr(k.kids[0], sc))
				v.s = strings.TrimSuffix(v.s, unknown)
			}
		}
	}
	return v
}

// pyContent is the text of a string's content, its escapes decoded.
func (in pyReader) pyContent(k *node, raw bool) string {
	if raw || len(k.kids) == 0 {
		return in.textOf(k)
	}
	var b strings.Builder
	at := k.start
	for _, e := range k.kids {
		if e.kind != "escape_sequence" || e.start < at {
			continue
		}
		b.Write(in.src()[at:e.start])
		b.WriteString(pyEscape(in.textOf(e)))
		at = e.end
	}
	b.Write(in.src()[at:k.end])
	return b.String()
}

// pyMapItems evaluates a comprehension over a list literal item by item,
// so that (chr(c) for c in codes) keeps the text each item gives.
func (in pyReader) pyMapItems(n *node, sc *scope) (value, bool) {
	var clause *node
	for _, k := range n.kids {
		switch k.kind {
		case "for_in_clause":
			if clause != nil {
				return value{}, false
			}
			clause = k
		case "if_clause":
			return value{}, false
		}
	}
	body := n.child("body")
	if clause == nil || body == nil || body.kind == "pair" {
		return value{}, false
	}
	left := clause.child("left")
	if left == nil || left.kind != "identifier" {
		return value{}, false
	}
	it := in.pyExpr(clause.child("right"), sc)
	if len(it.items) == 0 {
		return value{}, false
	}
	out := value{s: unknown}
	inner := newScope(sc)
	var items []value
	for _, item := range it.items {
		inner.vars[in.textOf(left)] = item
		v := in.pyExpr(body, inner)
		in.steps += len(v.items)
		out = join(out, v)
		items = append(items, v)
	}
	out = join(out, it)
	out.items = items
	return out, true
}

// pyComprehension reads a comprehension with its loop variables bound.
func (in pyReader) pyComprehension(n *node, sc *scope) value {
	if v, ok := in.pyMapItems(n, sc); ok {
		return v
	}
	inner := newScope(sc)
	for _, k := range n.kids {
		if k.kind == "for_in_clause" {
			it := in.pyExpr(k.child("right"), inner)
			for _, l := range k.children("left") {
				in.pyBind(l, element(it), inner)
			}
		}
	}
	body := n.child("body")
	if body == nil {
		return unknownValue()
	}
	if body.kind == "pair" {
		return join(in.pyExpr(body.child("key"), inner), in.pyExpr(body.child("value"), inner))
	}
	v := in.pyExpr(body, inner)
	return join(v, value{s: unknown})
}
