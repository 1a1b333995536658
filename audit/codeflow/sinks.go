package codeflow

import (
	"regexp"
	"strings"
	"sync"
)

// send reports data leaving by channel to host, at n, when it carries a
// secret, the environment or a credential file.
func (in *interp) send(n *node, channel, host string, data value) {
	if data.t&sensitive == 0 {
		return
	}
	in.report(Flow{
		Kind: Exfiltration, From: data.from, Secret: data.secret, Secrets: data.secrets, Whole: data.t&(tEnv|tCred) != 0,
		Channel: channel, Host: host,
	}, n)
}

// netToolRe matches a command that talks to the network.
var netToolRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s;|&(` + "`" + `/])(?:curl|wget|nc|ncat|netcat|socat|telnet|dig|nslookup|host|ssh|scp|sftp|rsync|ftp|openssl\s+s_client|git\s+push|mail|sendmail|aws\s+s3\s+cp)(?:$|[\s;|&)])`)
})

// command judges a command the code runs: data sent by a networking
// command, fetched content or a downloaded file run, a command built from
// pieces shown for the text rules to read.
func (in *interp) command(n *node, cmd value, argv []value) {
	all := cmd
	for _, a := range argv {
		all = join(all, a)
	}
	text := cmd.s
	if text == "" || text == unknown {
		text = unknown
	}
	if all.t&tFetched != 0 {
		in.report(Flow{Kind: RemoteExec, From: all.from, Channel: "shell"}, n)
	}
	if all.t&sensitive != 0 && netToolRe().MatchString(strings.ReplaceAll(text, unknown, " ")) {
		in.send(n, "shell", hostOf(text), all)
	}
	if p := in.downloadRun(text); p != "" {
		in.report(Flow{Kind: RemoteExec, From: "a file saved from the network (" + p + ")", Channel: "shell", Text: p}, n)
	}
	if cmd.built && text != unknown && strings.Trim(text, unknown+" ") != "" {
		in.report(Flow{Kind: Command, Text: strings.ReplaceAll(text, unknown, "…"), Hidden: all.hidden}, n)
	}
}

// code judges code the program runs from a value: fetched content is
// remote execution; code built in a string is read again.
func (in *interp) code(n *node, v value, lang Lang) {
	if v.t&tFetched != 0 {
		in.report(Flow{Kind: RemoteExec, From: v.from, Channel: "eval"}, n)
		return
	}
	if !v.built || !v.known() || in.exec >= maxExecDepth {
		return
	}
	in.report(Flow{Kind: Command, Text: v.s, Hidden: v.hidden}, n)
	in.readString(n, v.s, lang)
}

// readString reads code held in a string as a unit of its own, reporting
// what it does at the call that runs it.
func (in *interp) readString(n *node, code string, lang Lang) {
	root, err := parse(lang, []byte(code))
	if err != nil {
		return
	}
	saved, savedAnchor, savedUnit := in.cur, in.anchor, in.anchorUnit
	if in.anchor == nil {
		in.anchor, in.anchorUnit = n, in.cur
	}
	u := &unitState{Unit: Unit{Lang: lang, Code: []byte(code)}, root: root, globals: newScope(nil), attrs: map[string]value{}}
	in.units = append(in.units, u)
	in.cur = len(in.units) - 1
	in.exec++
	in.block(root, u.globals)
	in.exec--
	in.cur, in.anchor, in.anchorUnit = saved, savedAnchor, savedUnit
}

// downloads are the paths fetched content was saved to, for downloadRun.
func (in *interp) saved(n *node, path string) {
	if path == "" || path == unknown {
		return
	}
	in.dl = append(in.dl, path)
	in.report(Flow{Kind: Download, Text: strings.ReplaceAll(path, unknown, "…"), Channel: "file"}, n)
}

// downloadRun returns the downloaded path a command runs, if any.
func (in *interp) downloadRun(cmd string) string {
	for _, p := range in.dl {
		base := p[strings.LastIndexAny(p, `/\`)+1:]
		if strings.Trim(base, unknown) == "" {
			continue
		}
		if strings.Contains(cmd, p) || len(base) >= 3 && strings.Contains(cmd, base) {
			return strings.ReplaceAll(p, unknown, "…")
		}
	}
	return ""
}
