package codeflow

import (
	"slices"
	"strings"
)

// call is a call as the library tables judge it: its qualified name
// (requests.post, os.system, or .post for a method of an unknown object),
// the method's name, the receiver and the arguments.
type call struct {
	n    *node
	q    string
	name string
	recv value
	args []value
	kw   map[string]value
}

// arg is the i-th positional argument, or the keyword argument key.
func (c *call) arg(i int, key string) value {
	if v, ok := c.kw[key]; ok && key != "" {
		return v
	}
	if i >= 0 && i < len(c.args) {
		return c.args[i]
	}
	return unknownValue()
}

// all is the data of every argument, keyword or not, but those in skip.
func (c *call) all(skip ...string) value {
	v := joinAll(c.args)
	for k, a := range c.kw {
		if !slices.Contains(skip, k) {
			v = join(v, a)
		}
	}
	return v
}

// pyCall evaluates a call: a function of the skill, or a library call.
func (in pyReader) pyCall(n *node, sc *scope) value {
	c := &call{n: n, kw: map[string]value{}}
	fn := n.child("function")
	var callee value
	if fn != nil && fn.kind == "attribute" {
		c.recv = in.pyExpr(fn.child("object"), sc)
		c.name = in.textOf(fn.child("attribute"))
		c.q = "." + c.name
		if c.recv.kind == vModule {
			c.q = c.recv.s + "." + c.name
		}
	} else {
		callee = in.pyExpr(fn, sc)
		if callee.kind == vModule {
			c.q = callee.s
		}
		c.name = c.q[strings.LastIndexByte(c.q, '.')+1:]
	}
	in.pyArgs(n.child("arguments"), sc, c)
	if callee.kind == vFunc && callee.fn != nil {
		return in.call(callee.fn, c.args, c.kw)
	}
	if f := in.ownFn(c); f != nil {
		return in.call(f, c.args, c.kw)
	}
	v := in.pyLib(c)
	if fn != nil && fn.kind == "attribute" {
		in.mutate(fn.child("object"), c, sc)
	}
	if fn != nil && fn.kind == "attribute" && c.name == "connect" && c.recv.kind == vClient {
		if obj := fn.child("object"); obj.kind == "identifier" {
			r := c.recv
			r.host = hostOfAddress(c.arg(0, ""))
			sc.set(in.textOf(obj), r)
		}
	}
	return v
}

// mutators are the methods that put their arguments into the container they are called on.
var mutators = map[string]bool{
	"update": true, "append": true, "extend": true, "insert": true, "add": true, "setdefault": true,
	"push": true, "unshift": true, "set": true, "put": true, "appendleft": true, "write": true,
}

// mutate makes a container a mutator was called on hold its arguments' data:
// cfg.update(secret=...) taints cfg.
func (in *interp) mutate(obj *node, c *call, sc *scope) {
	if !mutators[c.name] || obj == nil || obj.kind != "identifier" || c.recv.kind != vData || c.recv.environ {
		return
	}
	if add := c.all(); add.t != 0 {
		sc.set(in.textOf(obj), mergeKeep(c.recv, add))
	}
}

// ownFn returns the skill's function a call runs, if it runs one: a bare
// name, a method of self, or a name imported from another of its files.
func (in *interp) ownFn(c *call) *fnDef {
	if c.name == "" || c.recv.kind == vClient || c.recv.kind == vFile {
		return nil
	}
	if c.recv.kind == vModule && knownModule(c.recv.s) {
		return nil
	}
	if c.recv.kind == vData && c.recv.t != 0 {
		return nil
	}
	return in.lookupFn(c.name)
}

// pyArgs evaluates the arguments of a call.
func (in pyReader) pyArgs(args *node, sc *scope, c *call) {
	if args == nil {
		return
	}
	if args.kind != "argument_list" {
		c.args = append(c.args, in.pyExpr(args, sc))
		return
	}
	for _, a := range args.kids {
		switch a.kind {
		case "keyword_argument":
			c.kw[in.textOf(a.child("name"))] = in.pyExpr(a.child("value"), sc)
		case "comment":
		default:
			c.args = append(c.args, in.pyExpr(a, sc))
		}
	}
}

// hostOfAddress is the host of a (host, port) pair or an address string.
func hostOfAddress(v value) string {
	if len(v.items) > 0 && v.items[0].known() {
		return strings.ToLower(v.items[0].s)
	}
	if v.known() {
		return strings.ToLower(v.s)
	}
	return ""
}

// pyLib judges a library call and returns its result.
func (in pyReader) pyLib(c *call) value {
	if v, ok := in.pySource(c); ok {
		return v
	}
	if v, ok := in.pyNet(c); ok {
		return v
	}
	if v, ok := in.pyRun(c); ok {
		return v
	}
	if v, ok := in.pyFile(c); ok {
		return v
	}
	if v, ok := pyFold(c); ok {
		return v
	}
	out := join(c.all(), value{s: unknown})
	if c.recv.kind == vData {
		out = join(out, c.recv)
	}
	return out
}

// pySource is a call that reads the environment, a keychain or a path.
func (in pyReader) pySource(c *call) (value, bool) {
	switch {
	case c.q == "os.getenv" || c.q == "os.environ.get" || c.recv.environ && (c.name == "get" || c.name == "setdefault" || c.name == "pop"):
		k := c.arg(0, "key")
		if k.known() {
			return envValue(k.s, in.textOf(c.n)), true
		}
		return wholeEnv(in.textOf(c.n)), true
	case c.recv.environ && (c.name == "copy" || c.name == "items" || c.name == "values" || c.name == "keys"):
		return wholeEnv(in.textOf(c.n)), true
	case c.q == "keyring.get_password" || c.q == "keyring.get_credential":
		return value{t: tSecret, s: unknown, from: in.textOf(c.n)}, true
	case c.q == "os.path.expanduser" || c.q == "os.path.expandvars" || c.q == "os.path.abspath" || c.q == "os.path.realpath" || c.q == "os.path.normpath":
		return c.arg(0, "path"), true
	case c.q == "os.path.join" || c.q == "pathlib.Path" || c.q == "Path" || c.q == "pathlib.PurePath" || c.q == "PurePath":
		return joinPath(c.args), true
	case c.q == "pathlib.Path.home" || c.q == "Path.home" || c.q == "os.path.expanduser":
		return dataOf("~"), true
	case c.name == "joinpath" && c.recv.kind == vData:
		return joinPath(append([]value{c.recv}, c.args...)), true
	case c.name == "expanduser" && c.recv.kind == vData:
		return c.recv, true
	}
	return value{}, false
}

// joinPath joins path parts with /.
func joinPath(parts []value) value {
	v := dataOf("")
	for i, p := range parts {
		if i > 0 {
			v = concat(v, dataOf("/"))
		}
		v = concat(v, p)
	}
	v.built = false
	return v
}

// pyFile is a call on a file or a path: opening, reading, writing.
func (in pyReader) pyFile(c *call) (value, bool) {
	switch {
	case c.q == "open" || c.q == "io.open" || c.q == "codecs.open" || c.name == "open" && c.recv.kind == vData && c.recv.s != unknown:
		p, mode := c.arg(0, "file"), c.arg(1, "mode")
		if c.name == "open" && c.q != "open" && c.q != "io.open" && c.q != "codecs.open" {
			p, mode = c.recv, c.arg(0, "mode")
		}
		return in.fileValue(p, mode.known() && strings.ContainsAny(mode.s, "wax")), true
	case c.recv.kind == vFile && (c.name == "write" || c.name == "writelines"):
		if c.arg(0, "").t&tFetched != 0 {
			in.saved(c.n, c.recv.path)
		}
		return unknownValue(), true
	case c.recv.kind == vFile:
		return contentOf(c.recv), true
	case c.name == "read_text" || c.name == "read_bytes":
		return contentOf(in.fileValue(c.recv, false)), true
	case c.name == "write_text" || c.name == "write_bytes":
		if c.arg(0, "data").t&tFetched != 0 {
			in.saved(c.n, c.recv.s)
		}
		return unknownValue(), true
	case c.q == "shutil.copyfileobj":
		if c.arg(0, "").t&tFetched != 0 && c.arg(1, "").kind == vFile {
			in.saved(c.n, c.arg(1, "").path)
		}
		return unknownValue(), true
	}
	return value{}, false
}

// knownModule reports a library module, whose functions a skill's own
// function of the same name does not stand for.
func knownModule(m string) bool {
	first, _, _ := strings.Cut(m, ".")
	return knownModules[first]
}

var knownModules = map[string]bool{
	"os": true, "sys": true, "subprocess": true, "requests": true, "httpx": true, "urllib": true, "urllib3": true,
	"http": true, "socket": true, "base64": true, "json": true, "codecs": true, "binascii": true, "smtplib": true,
	"ftplib": true, "webbrowser": true, "aiohttp": true, "dns": true, "pathlib": true, "shutil": true, "io": true,
	"pickle": true, "marshal": true, "zlib": true, "hashlib": true, "re": true, "asyncio": true, "pty": true,
	"builtins": true, "keyring": true, "boto3": true, "paramiko": true, "runpy": true, "importlib": true,
	"child_process": true, "fs": true, "path": true, "https": true, "net": true, "axios": true, "process": true,
	"Buffer": true, "JSON": true, "crypto": true, "vm": true, "node:child_process": true, "node:fs": true,
	"node:https": true, "node:http": true, "node:net": true, "node:dns": true, "node:vm": true, "console": true,
}
