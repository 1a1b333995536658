package codeflow

import (
	"cmp"
	"strings"
)

// httpVerbs are the functions and methods that send an HTTP request.
var httpVerbs = map[string]bool{
	"get": true, "post": true, "put": true, "patch": true, "delete": true, "head": true, "options": true,
	"request": true, "stream": true, "urlopen": true, "fetch": true,
}

// pyClients are constructors of connections, by the channel they use.
var pyClients = map[string]string{
	"requests.Session": "HTTP", "requests.session": "HTTP", "httpx.Client": "HTTP", "httpx.AsyncClient": "HTTP",
	"aiohttp.ClientSession": "HTTP", "urllib3.PoolManager": "HTTP", "urllib3.HTTPConnectionPool": "HTTP",
	"urllib3.HTTPSConnectionPool": "HTTP", "http.client.HTTPConnection": "HTTP", "http.client.HTTPSConnection": "HTTP",
	"socket.socket": "socket", "socket.create_connection": "socket", "smtplib.SMTP": "mail", "smtplib.SMTP_SSL": "mail",
	"ftplib.FTP": "FTP", "ftplib.FTP_TLS": "FTP", "dns.resolver.Resolver": "DNS", "paramiko.SSHClient": "socket",
}

// pyDNS are the lookups that put their argument in a DNS query.
var pyDNS = map[string]bool{
	"socket.gethostbyname": true, "socket.gethostbyname_ex": true, "socket.getaddrinfo": true,
	"socket.gethostbyaddr": true, "dns.resolver.resolve": true, "dns.resolver.query": true,
}

// pyNet is a call that sends: an HTTP request, a socket write, a DNS
// lookup, a mail, a browser opened on a URL.
func (in pyReader) pyNet(c *call) (value, bool) {
	if ch, ok := pyClients[c.q]; ok {
		v := value{kind: vClient, channel: ch, s: unknown}
		switch ch {
		case "HTTP":
			v.host = hostOf(c.arg(0, "base_url").s)
			if strings.HasSuffix(c.q, "Connection") || strings.HasSuffix(c.q, "Pool") {
				v.host = hostOfAddress(c.arg(0, "host"))
			}
		case "mail", "FTP":
			v.host = hostOfAddress(c.arg(0, "host"))
		case "socket":
			v.host = hostOfAddress(c.arg(0, "address"))
		}
		return v, true
	}
	switch {
	case pyDNS[c.q] || c.recv.kind == vClient && c.recv.channel == "DNS" && (c.name == "resolve" || c.name == "query"):
		name := c.arg(0, "host")
		in.send(c.n, "DNS", name.shown(), c.all())
		return unknownValue(), true
	case strings.HasPrefix(c.q, "webbrowser.open"):
		url := c.arg(0, "url")
		in.send(c.n, "browser", hostOf(url.s), url)
		return unknownValue(), true
	case c.q == "urllib.request.Request" || c.q == "Request":
		url := c.arg(0, "url")
		v := join(c.all(), value{s: unknown})
		v.s, v.host = url.s, cmp.Or(url.host, hostOf(url.s))
		return v, true
	case c.q == "urllib.request.urlretrieve" || c.q == "urlretrieve":
		url := c.arg(0, "url")
		in.send(c.n, "HTTP", cmp.Or(url.host, hostOf(url.s)), c.all())
		if p := c.arg(1, "filename"); p.s != unknown {
			in.saved(c.n, p.s)
		}
		return unknownValue(), true
	case c.recv.kind == vClient:
		return in.clientCall(c), true
	case httpVerbs[c.name] && (httpModule(c.q) || c.q == "urlopen"):
		return in.httpCall(c, ""), true
	case (c.name == "post" || c.name == "put" || c.name == "patch") && hostOf(c.arg(0, "url").s) != "":
		return in.httpCall(c, ""), true
	}
	return value{}, false
}

// httpModule reports a module-level HTTP function: requests.post,
// httpx.get, urllib.request.urlopen, aiohttp.request.
func httpModule(q string) bool {
	for _, m := range []string{"requests.", "httpx.", "urllib.request.", "urllib3.", "aiohttp."} {
		if strings.HasPrefix(q, m) && !strings.Contains(q[len(m):], ".") {
			return true
		}
	}
	return false
}

// httpCall sends a request: the URL is the first argument, or the
// second of request(method, url); the host is the URL's, or base's.
func (in *interp) httpCall(c *call, base string) value {
	url := c.arg(0, "url")
	if c.name == "request" || c.name == "stream" {
		url = c.arg(1, "url")
		if len(c.args) < 2 {
			url = c.arg(-1, "url")
		}
	}
	host := cmp.Or(url.host, hostOf(url.s))
	if host == "" {
		host = base
	}
	in.send(c.n, "HTTP", host, c.all())
	return fetched(url)
}

// clientCall is a method of a connection.
func (in pyReader) clientCall(c *call) value {
	r := c.recv
	switch r.channel {
	case "HTTP":
		if httpVerbs[c.name] {
			return in.httpCall(c, r.host)
		}
		if c.name == "send" || c.name == "endheaders" {
			in.send(c.n, "HTTP", r.host, c.all())
		}
		if c.name == "getresponse" {
			return fetched(value{s: unknown})
		}
	case "socket":
		switch c.name {
		case "send", "sendall", "sendto", "sendmsg", "write":
			host := r.host
			if c.name == "sendto" {
				host = hostOfAddress(c.arg(1, ""))
			}
			in.send(c.n, "socket", host, c.all())
		case "recv", "recvfrom", "makefile", "read":
			return fetched(value{s: unknown})
		case "exec_command":
			in.command(c.n, c.arg(0, "command"), nil)
		}
	case "mail":
		if c.name == "sendmail" || c.name == "send_message" || c.name == "send" {
			in.send(c.n, "mail", r.host, c.all())
		}
	case "FTP":
		if strings.HasPrefix(c.name, "stor") {
			in.send(c.n, "FTP", r.host, c.all())
		}
		if strings.HasPrefix(c.name, "retr") {
			return fetched(value{s: unknown})
		}
	case "DNS":
	}
	return unknownValue()
}

// pyCommands are the calls that run a command, and whether they take it
// as separate words (exec) or as a line for the shell.
var pyCommands = map[string]bool{
	"os.system": false, "os.popen": false, "subprocess.run": false, "subprocess.call": false,
	"subprocess.check_call": false, "subprocess.check_output": false, "subprocess.Popen": false,
	"subprocess.getoutput": false, "subprocess.getstatusoutput": false, "commands.getoutput": false,
	"asyncio.create_subprocess_shell": false, "asyncio.create_subprocess_exec": true, "os.execv": true,
	"os.execvp": true, "os.execl": true, "os.execlp": true, "os.execvpe": true, "os.spawnv": true,
	"os.spawnvp": true, "os.spawnl": true, "os.spawnlp": true, "pty.spawn": false, "os.posix_spawn": true,
}

// pyCode are the calls that run Python code held in a value.
var pyCode = map[string]bool{
	"exec": true, "eval": true, "compile": true, "builtins.exec": true, "builtins.eval": true,
	"pickle.loads": true, "marshal.loads": true, "dill.loads": true, "cloudpickle.loads": true,
	"runpy.run_path": true, "runpy.run_module": true,
}

// pyRun is a call that runs a command or code.
func (in pyReader) pyRun(c *call) (value, bool) {
	if words, ok := pyCommands[c.q]; ok {
		cmd := c.arg(0, "args")
		if words {
			cmd = value{s: unknown, items: c.args}
			for _, a := range c.args {
				cmd = join(cmd, a)
			}
			cmd.items = c.args
		}
		cmd = commandText(cmd)
		in.command(c.n, cmd, nil)
		return commandOutput(cmd, in.textOf(c.n)), true
	}
	if pyCode[c.q] {
		code := c.arg(0, "source")
		if strings.HasPrefix(c.q, "runpy.") {
			if p := in.downloadRun(code.s); p != "" {
				in.report(Flow{Kind: RemoteExec, From: "a file saved from the network (" + p + ")", Channel: "eval", Text: p}, c.n)
			}
			return unknownValue(), true
		}
		in.code(c.n, code, Python)
		return unknownValue(), true
	}
	if c.q == "__import__" || c.q == "importlib.import_module" {
		if m := c.arg(0, "name"); m.known() {
			return value{kind: vModule, s: m.s}, true
		}
	}
	if c.q == "getattr" {
		obj, name := c.arg(0, ""), c.arg(1, "")
		if obj.kind == vModule && name.known() {
			if q := obj.s + "." + name.s; q == "os.environ" || q == "posix.environ" {
				return environ(q), true
			}
			return value{kind: vModule, s: obj.s + "." + name.s}, true
		}
		if obj.environ {
			return obj, true
		}
	}
	return value{}, false
}

// commandText is a command as one line: a list's words joined by spaces.
func commandText(cmd value) value {
	if len(cmd.items) == 0 {
		return cmd
	}
	out := cmd
	parts := make([]string, 0, len(cmd.items))
	built := false
	for _, it := range cmd.items {
		parts = append(parts, textOf(it))
		built = built || it.built || !it.known()
	}
	out.s, out.built = clip(strings.Join(parts, " ")), built
	return out
}

// secretCommandRe are commands whose output is a secret: a keychain, a
// password manager, a CLI's stored token, the whole environment.
var secretCommands = []string{
	"security find-generic-password", "security find-internet-password", "security dump-keychain",
	"secret-tool lookup", "pass show", "op read", "op item get", "gh auth token", "aws configure get",
	"git credential fill", "gcloud auth print-access-token", "az account get-access-token", "printenv", "env",
	"cat ~/.ssh/", "cat ~/.aws/",
}

// commandOutput is what running cmd prints: fetched content for a
// download tool, a secret for a keychain or token command.
func commandOutput(cmd value, from string) value {
	t := strings.ReplaceAll(cmd.s, unknown, " ")
	if strings.HasPrefix(t, "curl ") || strings.HasPrefix(t, "wget ") || strings.Contains(t, " curl ") {
		return fetched(value{s: unknown})
	}
	for _, s := range secretCommands {
		if t == s || strings.HasPrefix(t, s+" ") || strings.HasPrefix(t, s) && strings.HasSuffix(s, "/") {
			v := value{t: tSecret, s: unknown, from: from}
			if s == "printenv" || s == "env" {
				v.t = tEnv
			}
			return v
		}
	}
	return join(cmd, value{s: unknown})
}
