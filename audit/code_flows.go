package audit

import (
	"cmp"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/audit/codeflow"
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// codeFlowHits analyses the code kept from every file of the skill as one
// program and adds what flows through it: secrets that leave, fetched
// content that runs, files saved from the network that another file runs,
// and commands the code builds, read by the text rules as the shell would
// get them.
func (s *scanner) codeFlowHits(t *treeScan) {
	if len(t.code) == 0 || !codeWorthReading(t.code) {
		return
	}
	units := make([]codeflow.Unit, len(t.code))
	for i, u := range t.code {
		units[i] = codeflow.Unit{Lang: u.lang, Code: u.code}
	}
	flows, err := codeflow.Analyze(units, t.dumps...)
	if err != nil {
		return
	}
	byFile := map[string][]hit{}
	var saved []codeflow.Flow
	for _, f := range flows {
		if f.Unit >= len(t.code) {
			continue
		}
		u := &t.code[f.Unit]
		switch f.Kind {
		case codeflow.Unread:
			h := newHit(rule("SG-TREE-014"), u.file, u.place(0), u.place(0), "unread\x00"+u.codeName())
			h.Message = u.codeName() + " was not read as a program: " + rule("SG-TREE-014").Help
			byFile[u.file] = append(byFile[u.file], h)
		case codeflow.Download:
			saved = append(saved, f)
		case codeflow.Command:
			byFile[u.file] = append(byFile[u.file], s.commandHits(u, f)...)
		default:
			if h, ok := flowHit(u, f); ok {
				byFile[u.file] = append(byFile[u.file], h)
			}
		}
	}
	for _, f := range saved {
		for _, h := range t.savedAndRun(f) {
			byFile[h.File] = append(byFile[h.File], h)
		}
	}
	t.placeCodeHits(byFile)
}

// dumped notes a file the skill's shell code writes the environment or a secret into.
func (s *scanner) dumped(name string) {
	if t := s.tree; t != nil && len(t.dumps) < 64 && !slices.Contains(t.dumps, name) {
		t.dumps = append(t.dumps, name)
	}
}

// placeCodeHits gives the hits of each file their lines and adds them.
func (t *treeScan) placeCodeHits(byFile map[string][]hit) {
	for _, u := range t.code {
		hits := byFile[u.file]
		if len(hits) == 0 {
			continue
		}
		placeHits(hits, u.data, newLineIndex(u.data))
		t.hits = append(t.hits, hits...)
		delete(byFile, u.file)
	}
	for file, hits := range byFile { // a file that runs what another saved
		if data := t.texts[file]; data != nil {
			placeHits(hits, data, newLineIndex(data))
			t.hits = append(t.hits, hits...)
		}
	}
}

// flowHit is the finding of an exfiltration or remote execution flow, if
// it counts as one.
func flowHit(u *codeUnit, f codeflow.Flow) (hit, bool) {
	start, end := u.place(f.Start), u.place(f.End)
	if u.base < 0 || end > len(u.data) {
		end = start
	}
	var h hit
	switch f.Kind {
	case codeflow.Exfiltration:
		if !exfilCounts(f) {
			return hit{}, false
		}
		h = newHit(rule("SG-EXF-025"), u.file, start, end, f.From+"\x00"+f.Channel+"\x00"+f.Host)
		h.Message = fmt.Sprintf("%s sends %s to %s over %s: %s", u.codeName(), f.From, cmp.Or(f.Host, "an address"), f.Channel, rule("SG-EXF-025").Help)
	case codeflow.RemoteExec:
		h = newHit(rule("SG-EXE-039"), u.file, start, end, f.From+"\x00"+f.Channel)
		h.Message = fmt.Sprintf("%s runs %s as code (%s): %s", u.codeName(), f.From, f.Channel, rule("SG-EXE-039").Help)
	default:
		return hit{}, false
	}
	h.Snippet = codeSnippet(u, f)
	return h, true
}

// codeSnippet is the code of a flow's call, as a finding shows it.
func codeSnippet(u *codeUnit, f codeflow.Flow) string {
	if f.Start < 0 || f.End > len(u.code) || f.Start > f.End {
		return ""
	}
	return excerpt(u.code, f.Start, f.End, nil)
}

// exfilCounts reports whether data sent by code is exfiltration: the
// whole environment or a credential file sent anywhere; any secret sent
// through DNS, a socket, mail, FTP, a browser or a networking command; a
// secret named for a service sent to a host that service does not own,
// or any secret sent to a capture service or a public IP address.
// A secret of an unknown service sent over HTTP to a named host is its
// normal use as far as the code shows.
func exfilCounts(f codeflow.Flow) bool {
	if f.Whole {
		return !localHost(f.Host)
	}
	if f.Channel != "HTTP" {
		return !localHost(f.Host)
	}
	if f.Host == "" || localHost(f.Host) {
		return false
	}
	if captureHost(f.Host) || publicAddress(f.Host) {
		return true
	}
	for _, name := range f.Secrets {
		if foreignHost(name, f.Host) {
			return true
		}
	}
	return false
}

// foreignHost reports whether host belongs to another service than the one a secret's
// name says it is for; false for a name that names no service the audit knows, since
// services reach their APIs through many domains and gateways.
func foreignHost(secret, host string) bool {
	owned := secretIssuer(secret)
	return owned != nil && !ownedBy(host, owned)
}

func localHost(h string) bool {
	h = strings.Trim(h, "[]")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() || ip.IsLinkLocalUnicast())
}

func publicAddress(h string) bool {
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsUnspecified() && !ip.IsLinkLocalUnicast()
}

func captureHost(h string) bool {
	for _, k := range exfilHostKeywords {
		if strings.Contains(h, k) {
			return true
		}
	}
	return false
}

// commandHits reads a command the code built, as the shell will get it,
// with the text rules.
func (s *scanner) commandHits(u *codeUnit, f codeflow.Flow) []hit {
	inner := &unit{file: u.file, text: u.code, orig: u.code, kind: kindScript}
	_, hits := s.payload(inner, f.Start, f.End, []byte(f.Text), "a command the code builds from pieces")
	for i := range hits {
		h := &hits[i]
		h.start, h.end = u.place(f.Start), u.place(f.End)
		if u.base < 0 {
			h.end = h.start
		}
		h.Snippet = codeSnippet(u, f)
	}
	if f.Hidden {
		h := newHit(rule("SG-EXE-040"), u.file, u.place(f.Start), u.place(f.End), "hidden\x00"+f.Text)
		if u.base < 0 {
			h.end = h.start
		}
		h.Decoded = visibleString(bounded(f.Text, maxSnippet))
		h.Snippet = codeSnippet(u, f)
		hits = append(hits, h)
	}
	return hits
}

// runVerbRe finds a file run by a shell or an interpreter: bash x.sh,
// python3 x.py, node x.js, source x, chmod +x x, ./x.
var runVerbRe = lazyregexp.New(`(?:\b(?:bash|sh|zsh|source|python3?|node|deno|bun|exec|perl|ruby|pwsh|powershell)[ \t]+(?:-\S+[ \t]+)*|chmod[ \t]+\+?[0-7x]+[ \t]+|\./)(\S+)`)

// savedAndRun returns findings where a file of the skill runs what the
// code saved from the network, in another file: the download and the
// run split across files so that neither reads as one.
func (t *treeScan) savedAndRun(f codeflow.Flow) []hit {
	saver := t.code[f.Unit].file
	base := f.Text[strings.LastIndexAny(f.Text, `/\`)+1:]
	if len(strings.Trim(base, "…")) < 3 {
		return nil
	}
	var out []hit
	for file, data := range t.texts {
		if file == saver || !strings.Contains(string(data), base) {
			continue
		}
		for _, m := range runVerbRe().FindAllSubmatchIndex(data, 64) {
			arg := string(data[m[2]:m[3]])
			if strings.HasSuffix(strings.TrimRight(arg, "\"'`;)., "), base) {
				h := newHit(rule("SG-EXE-039"), file, m[0], m[1], "saved\x00"+f.Text)
				h.Message = fmt.Sprintf("%s runs %s, which %s saves from the network: %s", file, f.Text, saver, rule("SG-EXE-039").Help)
				h.Snippet = excerpt(data, m[0], m[1], nil)
				out = append(out, h)
				break
			}
		}
	}
	return out
}
