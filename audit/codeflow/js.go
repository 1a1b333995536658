package codeflow

import (
	"cmp"
	"strings"
)

// jsFnOf returns the function a JavaScript declaration or method defines.
func jsFnOf(n *node, src []byte) *fnDef {
	switch n.kind {
	case "function_declaration", "generator_function_declaration", "method_definition":
	case "variable_declarator":
		v := n.child("value")
		if v == nil || (v.kind != "arrow_function" && v.kind != "function_expression" && v.kind != "function") {
			return nil
		}
		f := jsFunc(v, src)
		f.name = n.child("name").text(src)
		return f
	default:
		return nil
	}
	f := jsFunc(n, src)
	f.name = n.child("name").text(src)
	return f
}

// jsFunc is a function expression, arrow or declaration as a definition.
func jsFunc(n *node, src []byte) *fnDef {
	f := &fnDef{lang: JavaScript, body: n.child("body")}
	if p := n.child("parameter"); p != nil {
		f.params = []string{p.text(src)}
	}
	if ps := n.child("parameters"); ps != nil {
		for _, p := range ps.kids {
			switch p.kind {
			case "identifier":
				f.params = append(f.params, p.text(src))
			case "assignment_pattern":
				f.params = append(f.params, p.child("left").text(src))
			case "rest_pattern":
				f.params = append(f.params, p.first("identifier").text(src))
			default:
				f.params = append(f.params, "")
			}
		}
	}
	f.expr = f.body != nil && f.body.kind != "statement_block"
	return f
}

func (in jsReader) jsBlock(n *node, sc *scope) {
	if n == nil {
		return
	}
	if n.kind != "program" && n.kind != "statement_block" && n.kind != "class_body" {
		in.jsStmt(n, sc)
		return
	}
	for _, k := range n.kids {
		if !in.step() {
			return
		}
		in.jsStmt(k, sc)
		in.runLater()
	}
}

// runLater calls the callbacks held back until the statement that made a
// connection bound it: in const sock = net.connect(opts, () => sock.write(x)),
// the callback's sock is the connection.
func (in jsReader) runLater() {
	for len(in.later) > 0 {
		f := in.later[0]
		in.later = in.later[1:]
		f()
	}
}

// jsStmt reads one statement.
func (in jsReader) jsStmt(n *node, sc *scope) {
	switch n.kind {
	case "function_declaration", "generator_function_declaration":
		in.defined(n, sc)
	case "comment", "method_definition", "empty_statement":
	case "lexical_declaration", "variable_declaration":
		for _, d := range n.kids {
			if d.kind == "variable_declarator" {
				v := in.jsExpr(d.child("value"), sc)
				if d.child("value") == nil {
					v = unknownValue()
				}
				in.jsBind(d.child("name"), v, sc)
			}
		}
	case "class_declaration":
		in.jsBlock(n.child("body"), sc)
	case "statement_block", "program", "class_body":
		in.jsBlock(n, sc)
	case "return_statement":
		v := value{s: unknown}
		for _, k := range n.kids {
			v = in.jsExpr(k, sc)
		}
		in.ret(v)
	case "for_in_statement":
		it := in.jsExpr(n.child("right"), sc)
		if it.environ {
			it = wholeEnv(it.from)
		}
		in.jsBind(n.child("left"), element(it), sc)
		in.jsBlock(n.child("body"), sc)
	case "import_statement":
		in.jsImport(n, sc)
	case "if_statement", "for_statement", "while_statement", "do_statement", "try_statement", "else_clause",
		"catch_clause", "finally_clause", "switch_statement", "switch_body", "switch_case", "switch_default",
		"labeled_statement", "export_statement":
		for _, k := range n.kids {
			if isJSStmt(k.kind) {
				in.jsStmt(k, sc)
			} else {
				in.jsExpr(k, sc)
			}
		}
	default:
		for _, k := range n.kids {
			in.jsExpr(k, sc)
		}
	}
}

func isJSStmt(kind string) bool {
	return strings.HasSuffix(kind, "_statement") || strings.HasSuffix(kind, "_declaration") ||
		strings.HasSuffix(kind, "_clause") || kind == "statement_block" || kind == "switch_body" ||
		kind == "switch_case" || kind == "switch_default"
}

// jsImport binds the names an import statement brings in.
func (in jsReader) jsImport(n *node, sc *scope) {
	src := n.child("source")
	if src == nil {
		return
	}
	mod := jsModule(in.jsExpr(src, sc).s)
	clause := n.first("import_clause")
	if clause == nil {
		return
	}
	for _, k := range clause.kids {
		switch k.kind {
		case "identifier":
			sc.vars[in.textOf(k)] = value{kind: vModule, s: mod}
		case "namespace_import":
			sc.vars[in.textOf(k.first("identifier"))] = value{kind: vModule, s: mod}
		case "named_imports":
			for _, sp := range k.kids {
				name := in.textOf(sp.child("name"))
				alias := cmp.Or(in.textOf(sp.child("alias")), name)
				sc.vars[alias] = value{kind: vModule, s: mod + "." + name}
			}
		}
	}
}

// jsModule is a module's name without the node: scheme.
func jsModule(s string) string { return strings.TrimPrefix(s, "node:") }

// jsBind assigns v to a target: a name, a member, or a destructuring pattern.
func (in jsReader) jsBind(t *node, v value, sc *scope) {
	if t == nil {
		return
	}
	switch t.kind {
	case "identifier", "shorthand_property_identifier_pattern":
		sc.set(in.textOf(t), v)
	case "member_expression":
		prop := in.textOf(t.child("property"))
		u := in.units[in.cur]
		if old, ok := u.attrs[prop]; ok {
			v = mergeKeep(old, v)
		}
		u.attrs[prop] = v
		if obj := t.child("object"); obj != nil && obj.kind == "identifier" {
			name := in.textOf(obj)
			if old, ok := sc.get(name); ok && !old.environ && old.kind == vData {
				sc.set(name, mergeKeep(old, v))
			}
		}
	case "subscript_expression":
		if obj := t.child("object"); obj != nil && obj.kind == "identifier" {
			name := in.textOf(obj)
			if old, ok := sc.get(name); !ok || !old.environ {
				sc.set(name, mergeKeep(old, v))
			}
		}
	case "object_pattern":
		for _, k := range t.kids {
			in.jsBindProperty(k, v, sc)
		}
	case "array_pattern":
		for i, k := range t.kids {
			in.jsBind(k, itemAt(v, i), sc)
		}
	case "assignment_pattern":
		in.jsBind(t.child("left"), join(v, in.jsExpr(t.child("right"), sc)), sc)
	case "rest_pattern":
		for _, k := range t.kids {
			in.jsBind(k, derived(v), sc)
		}
	}
}

// jsBindProperty binds one property of an object pattern: from the
// environment, const { GITHUB_TOKEN } = process.env reads that variable;
// from a module, const { exec } = require("child_process") names its function.
func (in jsReader) jsBindProperty(k *node, v value, sc *scope) {
	var key string
	var target *node
	switch k.kind {
	case "shorthand_property_identifier_pattern":
		key, target = in.textOf(k), k
	case "pair_pattern":
		key, target = strings.Trim(in.textOf(k.child("key")), `"'`), k.child("value")
	case "object_assignment_pattern":
		key, target = in.textOf(k.child("left")), k.child("left")
	default:
		in.jsBind(k, derived(v), sc)
		return
	}
	switch {
	case v.environ:
		in.jsBind(target, envValue(key, v.from+"."+key), sc)
	case v.kind == vModule:
		in.jsBind(target, value{kind: vModule, s: v.s + "." + key}, sc)
	default:
		in.jsBind(target, derived(v), sc)
	}
}

// jsExpr evaluates one expression.
func (in jsReader) jsExpr(n *node, sc *scope) value {
	if n == nil || !in.step() {
		return unknownValue()
	}
	switch n.kind {
	case "identifier", "shorthand_property_identifier":
		return in.jsName(in.textOf(n), sc)
	case "member_expression":
		return in.jsMember(n, sc)
	case "subscript_expression":
		return in.jsSubscript(n, sc)
	case "call_expression", "new_expression":
		return in.jsCall(n, sc)
	case "string":
		return in.jsString(n, sc)
	case "template_string":
		return in.jsTemplate(n, sc)
	case "number", "true", "false", "null", "undefined":
		return dataOf(in.textOf(n))
	case "binary_expression":
		l, r := in.jsExpr(n.child("left"), sc), in.jsExpr(n.child("right"), sc)
		if op := in.between(n.child("left"), n.child("right")); op == "+" {
			return concat(l, r)
		}
		return join(l, r)
	case "assignment_expression":
		v := in.jsExpr(n.child("right"), sc)
		in.jsBind(n.child("left"), v, sc)
		return v
	case "augmented_assignment_expression":
		l, r := in.jsExpr(n.child("left"), sc), in.jsExpr(n.child("right"), sc)
		v := concat(l, r)
		in.jsBind(n.child("left"), v, sc)
		return v
	case "arrow_function", "function_expression", "function":
		f := jsFunc(n, in.src())
		f.unit, f.env = in.cur, sc
		return value{kind: vFunc, fn: f, s: unknown}
	case "array":
		return in.seq(n, sc, in.jsExpr)
	case "object":
		return in.dict(n, sc, in.jsExpr)
	case "pair":
		return join(in.jsExpr(n.child("key"), sc), in.jsExpr(n.child("value"), sc))
	case "property_identifier":
		return dataOf(in.textOf(n))
	case "parenthesized_expression", "await_expression", "spread_element", "computed_property_name", "non_null_expression":
		if len(n.kids) == 1 {
			return in.jsExpr(n.kids[0], sc)
		}
	case "sequence_expression":
		v := unknownValue()
		for _, k := range n.kids {
			v = in.jsExpr(k, sc)
		}
		return v
	}
	v := value{s: unknown}
	for _, k := range n.kids {
		v = join(v, in.jsExpr(k, sc))
	}
	return v
}

// between is the operator text between two operands.
func (in jsReader) between(l, r *node) string {
	if l == nil || r == nil || l.end > r.start {
		return ""
	}
	return strings.TrimSpace(string(in.src()[l.end:r.start]))
}

// jsName is the value of a name.
func (in jsReader) jsName(name string, sc *scope) value {
	if v, ok := sc.get(name); ok {
		return v
	}
	if f := in.lookupFn(name); f != nil {
		return value{kind: vFunc, fn: f, s: unknown}
	}
	return value{kind: vModule, s: name}
}

// jsMember is obj.prop read as a value.
func (in jsReader) jsMember(n *node, sc *scope) value {
	obj := in.jsExpr(n.child("object"), sc)
	prop := in.textOf(n.child("property"))
	switch {
	case obj.environ:
		return envValue(prop, in.textOf(n))
	case obj.kind == vModule:
		q := obj.s + "." + prop
		if q == "process.env" {
			return environ(q)
		}
		if v, ok := in.attr(prop); ok && !knownModule(obj.s) {
			return v
		}
		return value{kind: vModule, s: q}
	case obj.kind == vClient || obj.kind == vFile:
		return obj
	}
	if v, ok := in.attr(prop); ok && obj.t == 0 {
		return v
	}
	return derived(obj)
}

// jsSubscript is obj[index].
func (in jsReader) jsSubscript(n *node, sc *scope) value {
	obj := in.jsExpr(n.child("object"), sc)
	idx := in.jsExpr(n.child("index"), sc)
	switch {
	case obj.environ && idx.known():
		return envValue(idx.s, in.textOf(n))
	case obj.environ:
		return wholeEnv(in.textOf(n))
	case obj.kind == vModule && idx.known():
		return value{kind: vModule, s: obj.s + "." + idx.s}
	}
	return derived(obj)
}

// jsString is a string literal with its escapes decoded.
func (in jsReader) jsString(n *node, sc *scope) value {
	v := dataOf("")
	for _, k := range n.kids {
		switch k.kind {
		case "string_fragment":
			v = appendText(v, in.textOf(k))
		case "escape_sequence":
			v = appendText(v, jsEscape(in.textOf(k)))
			v.built = true
		}
	}
	return v
}

// jsTemplate is a template literal with its substitutions in place.
func (in jsReader) jsTemplate(n *node, sc *scope) value {
	v := dataOf("")
	at := n.start + 1
	for _, k := range n.kids {
		if k.start > at {
			v = appendText(v, string(in.src()[at:k.start]))
		}
		switch k.kind {
		case "template_substitution":
			for _, e := range k.kids {
				v = concat(v, in.jsExpr(e, sc))
			}
		case "escape_sequence":
			v = appendText(v, jsEscape(in.textOf(k)))
			v.built = true
		default:
			v = appendText(v, in.textOf(k))
		}
		at = k.end
	}
	if end := n.end - 1; end > at {
		v = appendText(v, string(in.src()[at:end]))
	}
	return v
}

// jsEscape decodes one JavaScript escape sequence.
func jsEscape(e string) string {
	if strings.HasPrefix(e, `\u{`) && strings.HasSuffix(e, "}") {
		return pyEscape(`\U` + strings.Repeat("0", max(0, 8-(len(e)-4))) + e[3:len(e)-1])
	}
	if e == `\'` || e == "\\`" {
		return e[1:]
	}
	return pyEscape(e)
}
