package codeflow

import (
	"cmp"
	"strconv"
	"strings"
)

// jsCall evaluates a call or new expression.
func (in jsReader) jsCall(n *node, sc *scope) value {
	c := &call{n: n, kw: map[string]value{}}
	fn := n.child("function")
	if fn == nil {
		fn = n.child("constructor")
	}
	var callee value
	if fn != nil && fn.kind == "member_expression" {
		c.recv = in.jsExpr(fn.child("object"), sc)
		c.name = in.textOf(fn.child("property"))
		c.q = "." + c.name
		if c.recv.kind == vModule {
			c.q = c.recv.s + "." + c.name
		}
	} else {
		callee = in.jsExpr(fn, sc)
		if callee.kind == vModule {
			c.q = callee.s
		}
		c.name = c.q[strings.LastIndexByte(c.q, '.')+1:]
	}
	if args := n.child("arguments"); args != nil {
		if args.kind == "template_string" {
			c.args = append(c.args, in.jsExpr(args, sc))
		} else {
			for _, a := range args.kids {
				if a.kind != "comment" {
					c.args = append(c.args, in.jsExpr(a, sc))
				}
			}
		}
	}
	var out value
	switch {
	case callee.kind == vResolve:
		*callee.acc = join(*callee.acc, joinAll(c.args))
		return unknownValue()
	case c.q == "Promise" && len(c.args) > 0 && c.args[0].kind == vFunc && c.args[0].fn != nil:
		return in.promise(c.args[0].fn)
	case callee.kind == vFunc && callee.fn != nil:
		out = in.call(callee.fn, c.args, nil)
	case in.ownFn(c) != nil && !jsBuiltinMethod[c.name]:
		out = in.call(in.ownFn(c), c.args, nil)
	default:
		out = in.jsLib(c)
	}
	if out.kind == vClient {
		in.later = append(in.later, func() { in.callbacks(c, out) })
	} else {
		in.callbacks(c, out)
	}
	if fn != nil && fn.kind == "member_expression" {
		in.mutate(fn.child("object"), c, sc)
	}
	if fn != nil && fn.kind == "member_expression" && c.recv.kind == vClient && (c.name == "open" || c.name == "connect") {
		if obj := fn.child("object"); obj.kind == "identifier" {
			r := c.recv
			if c.name == "open" {
				r.host = hostOf(c.arg(1, "").s)
			} else {
				r.host = hostOfAddress(c.arg(1, ""))
			}
			sc.set(in.textOf(obj), r)
		}
	}
	return out
}

// promise runs a promise's executor and returns what it resolves with.
func (in jsReader) promise(executor *fnDef) value {
	acc := &value{s: unknown}
	r := value{kind: vResolve, acc: acc, s: unknown}
	in.call(executor, []value{r, r}, nil)
	return *acc
}

// jsBuiltinMethod are methods of JavaScript's own types, which a skill's
// function of the same name does not stand for.
var jsBuiltinMethod = map[string]bool{
	"then": true, "catch": true, "map": true, "forEach": true, "filter": true, "reduce": true, "join": true,
	"push": true, "toString": true, "split": true, "replace": true, "on": true, "write": true, "end": true,
}

// callbacks calls the functions passed to a call, with what the call
// hands them: the receiver's data (res.on("data", d => ...), a promise's
// then), or the call's own result (https.get(url, res => ...)).
func (in jsReader) callbacks(c *call, out value) {
	arg := value{s: unknown}
	switch {
	case c.recv.kind == vData && c.recv.t != 0:
		arg = derived(c.recv)
	case out.t != 0:
		arg = derived(out)
	case c.recv.kind == vClient && c.recv.t&tFetched != 0:
		arg = fetched(value{s: unknown})
	}
	for _, a := range c.args {
		if a.kind == vFunc && a.fn != nil {
			args := make([]value, max(len(a.fn.params), 1))
			for i := range args {
				args[i] = arg
			}
			in.call(a.fn, args, nil)
		}
	}
}

// jsLib judges a library call and returns its result.
func (in jsReader) jsLib(c *call) value {
	if v, ok := in.jsSource(c); ok {
		return v
	}
	if v, ok := in.jsNet(c); ok {
		return v
	}
	if v, ok := in.jsRun(c); ok {
		return v
	}
	if v, ok := jsFold(c); ok {
		return v
	}
	out := join(c.all(), value{s: unknown})
	if c.recv.kind == vData {
		out = join(out, c.recv)
	}
	return out
}

// jsSource is a call that reads a module, a file, a path or the environment.
func (in jsReader) jsSource(c *call) (value, bool) {
	q := strings.TrimPrefix(c.q, "node:")
	switch {
	case q == "require":
		return value{kind: vModule, s: jsModule(c.arg(0, "").s)}, c.arg(0, "").known()
	case q == "os.homedir":
		return dataOf("~"), true
	case q == "path.join" || q == "path.resolve" || q == "path.posix.join":
		return joinPath(c.args), true
	case q == "fs.readFileSync" || q == "fs.readFile" || q == "fs.promises.readFile" || q == "fs/promises.readFile":
		return contentOf(in.fileValue(c.arg(0, ""), false)), true
	case q == "fs.createReadStream":
		return contentOf(in.fileValue(c.arg(0, ""), false)), true
	case q == "fs.createWriteStream" || q == "fs.openSync":
		return in.fileValue(c.arg(0, ""), true), true
	case q == "fs.writeFileSync" || q == "fs.writeFile" || q == "fs.promises.writeFile" || q == "fs/promises.writeFile":
		if c.arg(1, "").t&tFetched != 0 {
			in.saved(c.n, c.arg(0, "").s)
		}
		return unknownValue(), true
	case c.name == "pipe" && c.recv.t&tFetched != 0 && c.arg(0, "").kind == vFile:
		in.saved(c.n, c.arg(0, "").path)
		return unknownValue(), true
	case c.recv.kind == vFile && (c.name == "write" || c.name == "end"):
		if c.arg(0, "").t&tFetched != 0 {
			in.saved(c.n, c.recv.path)
		}
		return unknownValue(), true
	case c.recv.environ:
		return wholeEnv(c.recv.from), true
	case q == "Object.entries" || q == "Object.keys" || q == "Object.values" || q == "Object.assign" || q == "JSON.stringify" || q == "structuredClone":
		v := join(c.all(), value{s: unknown})
		for _, a := range c.args {
			if a.environ {
				v = join(v, wholeEnv(a.from))
			}
		}
		return v, true
	}
	return value{}, false
}

// jsDNS are the lookups that put their argument in a DNS query.
var jsDNS = map[string]bool{
	"lookup": true, "resolve": true, "resolve4": true, "resolve6": true, "resolveTxt": true, "resolveAny": true,
	"resolveCname": true, "resolveMx": true, "resolveNs": true, "resolveSrv": true, "reverse": true,
}

// jsNet is a call that sends data or opens a connection.
func (in jsReader) jsNet(c *call) (value, bool) {
	q := strings.TrimPrefix(c.q, "node:")
	mod, _, _ := strings.Cut(q, ".")
	switch {
	case q == "fetch" || q == "node-fetch" || q == "got" || q == "axios" || q == "undici.fetch" || q == "undici.request" || q == "window.fetch" || q == "globalThis.fetch":
		url := c.arg(0, "")
		if q == "axios" && len(url.items) == 0 && !url.known() {
			return in.jsSend(c, url), true
		}
		return in.jsSend(c, url), true
	case (mod == "axios" || mod == "got" || mod == "superagent" || mod == "needle" || mod == "ky") && httpVerbs[c.name]:
		return in.jsSend(c, c.arg(0, "")), true
	case q == "axios.create":
		return value{kind: vClient, channel: "HTTP", s: unknown, host: hostOf(textOf(c.arg(0, "")))}, true
	case (mod == "http" || mod == "https") && (c.name == "request" || c.name == "get"):
		url := c.arg(0, "")
		host := cmp.Or(hostOf(url.s), url.host)
		in.send(c.n, "HTTP", host, c.all())
		return value{kind: vClient, channel: "HTTP", host: host, s: unknown, t: tFetched, from: fetched(url).from}, true
	case q == "XMLHttpRequest":
		return value{kind: vClient, channel: "HTTP", s: unknown}, true
	case q == "WebSocket" || q == "ws" || q == "ws.WebSocket":
		return value{kind: vClient, channel: "socket", host: hostOf(c.arg(0, "").s), s: unknown}, true
	case q == "navigator.sendBeacon":
		in.send(c.n, "HTTP", hostOf(c.arg(0, "").s), c.all())
		return unknownValue(), true
	case mod == "net" || mod == "tls":
		if c.name == "connect" || c.name == "createConnection" || c.name == "Socket" {
			return value{kind: vClient, channel: "socket", host: jsSocketHost(c), s: unknown}, true
		}
	case (mod == "dns" || strings.HasPrefix(q, "dns.promises.")) && jsDNS[c.name]:
		in.send(c.n, "DNS", c.arg(0, "").shown(), c.all())
		return unknownValue(), true
	case c.recv.kind == vClient:
		return in.jsClient(c), true
	}
	return value{}, false
}

// jsSend sends an HTTP request to url, with all the call's arguments.
func (in jsReader) jsSend(c *call, url value) value {
	host := cmp.Or(hostOf(url.s), url.host)
	in.send(c.n, "HTTP", host, c.all())
	return fetched(url)
}

// jsSocketHost is the host net.connect(port, host) or ({host}) names.
func jsSocketHost(c *call) string {
	if h := c.arg(1, ""); h.known() {
		return strings.ToLower(h.s)
	}
	return c.arg(0, "").host
}

// jsClient is a method of a connection or request object.
func (in jsReader) jsClient(c *call) value {
	r := c.recv
	switch {
	case r.channel == "HTTP" && httpVerbs[c.name]:
		return in.httpCall(c, r.host)
	case c.name == "write" || c.name == "end" || c.name == "send":
		in.send(c.n, cmp.Or(r.channel, "HTTP"), r.host, c.all())
	}
	if r.t&tFetched != 0 {
		return derived(r)
	}
	return unknownValue()
}

// jsCommands are child_process's functions, and whether they take the
// command as separate words.
var jsCommands = map[string]bool{
	"exec": false, "execSync": false, "spawn": true, "spawnSync": true, "execFile": true, "execFileSync": true, "fork": true,
}

// jsRun is a call that runs a command or code.
func (in jsReader) jsRun(c *call) (value, bool) {
	q := strings.TrimPrefix(c.q, "node:")
	mod, _, _ := strings.Cut(q, ".")
	if words, ok := jsCommands[c.name]; ok && (mod == "child_process" || q == "execa" || q == "shelljs.exec") {
		cmd := c.arg(0, "")
		if words && len(c.args) > 1 {
			list := c.arg(1, "")
			cmd = value{s: unknown, items: append([]value{c.arg(0, "")}, list.items...)}
			cmd = join(cmd, list)
			cmd.items = append([]value{c.arg(0, "")}, list.items...)
			if len(list.items) == 0 {
				cmd.items = append(cmd.items, list)
			}
		}
		cmd = commandText(cmd)
		in.command(c.n, cmd, nil)
		return commandOutput(cmd, in.textOf(c.n)), true
	}
	switch q {
	case "eval", "Function", "window.eval", "globalThis.eval", "vm.runInThisContext", "vm.runInNewContext",
		"vm.runInContext", "vm.Script", "vm.compileFunction", "setTimeout", "setInterval":
		code := c.arg(0, "")
		if q == "Function" && len(c.args) > 0 {
			code = c.args[len(c.args)-1]
		}
		if (q == "setTimeout" || q == "setInterval") && code.kind == vFunc {
			return unknownValue(), true
		}
		in.code(c.n, code, JavaScript)
		return unknownValue(), true
	case "import":
		if p := in.downloadRun(c.arg(0, "").s); p != "" {
			in.report(Flow{Kind: RemoteExec, From: "a file saved from the network (" + p + ")", Channel: "eval", Text: p}, c.n)
		}
	}
	return value{}, false
}

// jsFold evaluates the string operations code hides text with.
func jsFold(c *call) (value, bool) {
	a := c.arg(0, "")
	switch c.q {
	case "atob":
		return decoded(a, decodeBase64)
	case "String.fromCharCode", "String.fromCodePoint":
		var b strings.Builder
		for _, x := range c.args {
			n, err := strconv.Atoi(x.s)
			if err != nil || n < 0 || n >= 0x110000 {
				return value{}, false
			}
			b.WriteRune(rune(n))
		}
		return value{s: clip(b.String()), built: true, hidden: true}, true
	case "Buffer.from":
		if e := c.arg(1, ""); e.known() {
			switch e.s {
			case "base64", "base64url":
				return decoded(a, decodeBase64)
			case "hex":
				return decoded(a, decodeHex)
			}
		}
		return a, true
	case "String":
		return a, true
	}
	return jsStrMethod(c)
}

// jsStrMethod is a method of a known string or array.
func jsStrMethod(c *call) (value, bool) {
	r := c.recv
	if r.kind != vData || c.q != "."+c.name {
		return value{}, false
	}
	switch c.name {
	case "toString", "trim", "valueOf", "toLowerCase", "toUpperCase":
		v := r
		switch c.name {
		case "toLowerCase":
			v.s = strings.ToLower(r.s)
		case "toUpperCase":
			v.s = strings.ToUpper(r.s)
		}
		return v, true
	case "split":
		if sep := c.arg(0, ""); r.known() && sep.known() {
			parts := strings.Split(r.s, sep.s)
			if len(parts) > maxItems {
				break
			}
			v := r
			v.items = nil
			for _, p := range parts {
				v.items = append(v.items, value{s: p})
			}
			return v, true
		}
	case "reverse":
		if len(r.items) > 0 {
			v := r
			v.hidden = true
			v.items = make([]value, len(r.items))
			for i, it := range r.items {
				v.items[len(r.items)-1-i] = it
			}
			return v, true
		}
	case "join":
		if len(r.items) > 0 {
			sep := c.arg(0, "")
			if len(c.args) == 0 {
				sep = dataOf(",")
			}
			if sep.known() {
				parts := make([]string, len(r.items))
				v := value{built: true, hidden: r.hidden}
				for i, x := range r.items {
					parts[i] = textOf(x)
					v = join(v, x)
				}
				v.s, v.built = clip(strings.Join(parts, sep.s)), true
				return v, true
			}
		}
	case "concat":
		v := r
		for _, a := range c.args {
			v = concat(v, a)
		}
		return v, true
	case "replace", "replaceAll":
		if o, n := c.arg(0, ""), c.arg(1, ""); r.known() && o.known() && n.known() && o.s != "" {
			v := r
			v.s, v.built = clip(strings.ReplaceAll(r.s, o.s, n.s)), true
			return v, true
		}
	}
	return value{}, false
}
