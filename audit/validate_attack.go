package audit

import (
	"bytes"
	"path"
	"slices"
	"strings"
)

var findFilters = []string{"-name", "-iname", "-path", "-ipath", "-regex", "-mtime", "-mmin", "-newer", "-user", "-size", "-empty", "-perm", "-atime", "-ctime"}

// anyName matches a name filter that lets every file through.
var anyName = lazy(`-i?(?:name|path)\s+["']?\*["']?(?:\s|$)`)

// wholeTreeFind rejects a find that deletes only files it filters by
// name, age or size; other matches of the rule pass.
func wholeTreeFind(data []byte, loc []int) bool {
	m := strings.ToLower(string(data[loc[0]:loc[1]]))
	if !strings.HasPrefix(m, "find") {
		return true
	}
	m = anyName.ReplaceAllString(m, "")
	for _, f := range findFilters {
		if strings.Contains(m, f) {
			return false
		}
	}
	return true
}

var (
	outputArgRe = lazy(`(?i)(?:^|\s)(?:-[a-z]*o|--output(?:-document)?|-outfile|>)\s*=?\s*["']?([^\s'"\x60;&|<>]+)`)
)

// runsDownload accepts a download command when the same line or one of
// the next four runs the file it wrote: the last part of its address or
// the name given with -o, -O, -OutFile or a redirection.
func runsDownload(data []byte, loc []int) bool {
	fromURL, named := downloadNames(data[loc[0]:loc[1]])
	if len(fromURL)+len(named) == 0 {
		return false
	}
	end := loc[1]
	for i := 0; i < 4 && end < len(data); i++ {
		end = lineEndAt(data, end+1)
	}
	after := data[loc[0]:min(end, loc[0]+maxAnchor)]
	if mayVerify(after) && verified.Match(after) {
		return false
	}
	for _, set := range []map[string]bool{named, fromURL} {
		for n := range set {
			if runsName(after, n, named[n]) {
				return true
			}
		}
	}
	return false
}

// runsName reports whether text, after the first time it names file n,
// runs n: by an interpreter, as a sourced file or by its path. A name
// taken from an address alone must be run with a path or extension, so
// that "curl https://example.com/install | bash" and a later "bun
// install" are not one download and one run.
func runsName(text []byte, n string, named bool) bool {
	first := bytes.Index(text, []byte(n))
	for off, tries := first+len(n), 0; first >= 0 && off < len(text) && tries < 8; tries++ {
		i := bytes.Index(text[off:], []byte(n))
		if i < 0 {
			return false
		}
		p := off + i
		off = p + len(n)
		if !bytes.ContainsAny(text[p-1:p], " \t\n/\\'\"`") || notRun(text, p) {
			continue
		}
		seg := text[max(lineStartAt(text, p)-1, p-120, 0):min(len(text), p+len(n)+1)]
		for _, m := range runRe.FindAllSubmatchIndex(seg, 4) {
			g := 2
			for g+1 < len(m) && m[g] < 0 {
				g += 2
			}
			if g+1 >= len(m) {
				continue
			}
			raw := string(seg[m[g]:m[g+1]])
			if fileBase(raw) == n && (named || strings.ContainsAny(raw, `./\\`)) {
				return true
			}
		}
	}
	return false
}

var outputFlag = lazy(`(?i)^(?:-[a-z]*o|--output(?:-document)?|-outfile|>)$`)

// notRun reports whether the name at p is where a download is written:
// inside an address or after an output flag.
func notRun(text []byte, p int) bool {
	ls := max(lineStartNear(text, p), p-maxAnchor)
	tok := bytes.LastIndexAny(text[ls:p], " \t'\"`")
	if bytes.Contains(text[ls+tok+1:p], []byte("://")) {
		return true
	}
	prev := bytes.Fields(text[ls : ls+tok+1])
	return len(prev) > 0 && outputFlag.Match(prev[len(prev)-1])
}

// runRe finds a file run by an interpreter, sourced or run by its path.
var runRe = lazy(`(?i)(?:^|&&?|\|\||;|\n|[\s(\x60'"|]|\\u0026)\s*` + runners + `\s+["']?((?:\./|\.\\)?[\w.~$%{}:\\/-]+)` +
	`|(?:&&|\|\||;|\n|[(\x60]|\\u0026)\s*\.\s+((?:/|\./|~/|\$)[\w.~${}/-]+)` +
	`|(?:&&|\|\||;|\n|\\u0026)\s*(?:sudo\s+|&\s*)?((?:\./|\.\\|/tmp/|~/|\$\w+/|\$\{\w+\}/|\$env:\w+\\)[\w.\\/-]+)` +
	`|(?:&&|\|\||;|\n|\\u0026)\s*(?:sudo\s+)?([\w][\w.-]*)(?:[\s\x60'"]|$)`)

// mayVerify is a cheap test that text might hold a check of a download.
func mayVerify(text []byte) bool {
	return bytes.Contains(bytes.ToLower(text), []byte("sum"))
}

// verified matches a check of a download against a hash written in the
// skill, the remedy the rule asks for; a hash fetched from the same place
// as the download proves nothing, so it does not count.
var verified = lazy(`(?i)\b[0-9a-f]{64}\b[^\n]*\b(?:sha256sum|shasum)\b[^\n]*(?:\s-c\b|--check\b)|\b(?:sha256sum|shasum)\b[^\n]*(?:\s-c\b|--check\b)[^\n]*\b[0-9a-f]{64}\b`)

// downloadNames returns the base names of the files a download command
// may have written: those its addresses end in, and those it names with
// an output flag or a redirection.
func downloadNames(cmd []byte) (fromURL, named map[string]bool) {
	fromURL, named = map[string]bool{}, map[string]bool{}
	for _, u := range urls(cmd) {
		s, _, _ := strings.Cut(string(u), "?")
		s, _, _ = strings.Cut(s, "#")
		if _, p, ok := strings.Cut(strings.SplitN(s, "://", 2)[1], "/"); ok {
			if b := fileBase(p); b != "" {
				fromURL[b] = true
			}
		}
	}
	if !bytes.Contains(cmd, []byte("-o")) && !bytes.Contains(cmd, []byte("-O")) && bytes.IndexByte(cmd, '>') < 0 {
		return fromURL, named
	}
	for _, m := range outputArgRe.FindAllSubmatch(cmd, -1) {
		if b := fileBase(string(m[1])); b != "" && b != "-" {
			named[b] = true
		}
	}
	return fromURL, named
}

// urls returns the http and https addresses in b, up to a space, quote,
// separator or bracket.
func urls(b []byte) [][]byte {
	var out [][]byte
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte("://"))
		if i < 0 {
			return out
		}
		i += off
		off = i + 3
		s := i - 4
		if i > 0 && (b[i-1] == 's' || b[i-1] == 'S') {
			s--
		}
		if s < 0 || !bytes.EqualFold(b[s:s+4], []byte("http")) {
			continue
		}
		e := off
		for e < len(b) && !bytes.ContainsRune([]byte(" \t\n'\"`|;&)<>"), rune(b[e])) {
			e++
		}
		out = append(out, b[s:e])
		off = e
	}
}

// fileBase returns the last element of a Unix or Windows path.
func fileBase(p string) string {
	p = strings.Trim(p, `"'`)
	p = strings.ReplaceAll(p, `\`, "/")
	b := path.Base(p)
	if b == "." || b == "/" {
		return ""
	}
	return b
}

var (
	assignRe = lazy(`^\s*(?:(?:const|let|var|my|local)\s+)?\$?([A-Za-z_]\w*)\s*=\s*(.*)$`)
	sinkRe   = lazy(`(?i)(?:\b(?:exec|eval|execfile|os\.system|os\.popen|subprocess\.\w+|execsync|spawnsync|spawn|system|popen|passthru|shell_exec|iex|invoke-expression)|\bnew\s+function)\s*\(\s*(?:compile\s*\(\s*)?(?:\[\s*)?\$?([A-Za-z_]\w*)|(?i)\b(?:iex|invoke-expression)\s+\$([A-Za-z_]\w*)`)
	wordRe   = lazy(`[A-Za-z_]\w*`)
)

// sinkWord lists words one of which a call that runs code contains.
type sinkWord []string

var sinkWords = sinkWord{"exec", "eval", "system", "popen", "subprocess", "spawn", "function", "iex", "invoke-expression", "passthru"}

func (w sinkWord) has(lower []byte) bool {
	return slices.ContainsFunc(w, func(s string) bool { return bytes.Contains(lower, []byte(s)) })
}

// flowsToSink follows variable v through the lines after offset from.
func flowsToSink(data []byte, from int, v string, lines int) bool {
	tainted := map[string]bool{v: true}
	end := from
	for i := 0; i <= lines && end < len(data); i++ {
		end = lineEndAt(data, min(end+1, len(data)))
	}
	rest := data[from:min(end, from+maxAnchor*2)]
	if !sinkWords.has(bytes.ToLower(rest)) {
		return false
	}
	for i, line := range bytes.SplitN(rest, []byte("\n"), lines+2) {
		if i > lines {
			break
		}
		for _, m := range sinkRe.FindAllSubmatch(line, -1) {
			if tainted[string(m[1])] || tainted[string(m[2])] {
				return true
			}
		}
		if m := assignRe.FindSubmatch(line); m != nil && i > 0 {
			for _, w := range wordRe.FindAll(m[2], -1) {
				if tainted[string(w)] {
					tainted[string(m[1])] = true
					break
				}
			}
		}
	}
	return false
}

var (
	copyVerbRe   = lazy(`(?i)^(?:cp|scp|rsync|rclone)\b`)
	uploadVerbRe = lazy(`(?i)^(?:curl|wget)\b`)
	uploadArg    = lazy(`(?i)(?:@|\s-T\s*|--upload-file[\s=]+|--post-file[\s=]+)["']?(?:~|\$HOME|\$\{HOME\}|/home/|/Users/|/root)`)
)

// credentialIsSource rejects a copy whose credential folder is the last
// argument, the destination, a tar that extracts into it and a download
// that only authenticates with it.
func credentialIsSource(data []byte, loc []int) bool {
	m := data[loc[0]:loc[1]]
	rest := data[loc[1]:lineEndAt(data, loc[1])]
	if uploadVerbRe.Match(m) {
		return uploadArg.Match(m)
	}
	if copyVerbRe.Match(m) {
		next := bytes.TrimLeft(rest, " \t")
		return len(next) > 0 && !bytes.ContainsAny(next[:1], ";&|)\x60")
	}
	if f := bytes.Fields(bytes.ToLower(m)); len(f) > 1 && string(f[0]) == "tar" {
		return !bytes.ContainsRune(bytes.TrimLeft(f[1], "-"), 'x')
	}
	return true
}

// warnings are words with which a document names the command that
// follows as something not to run: a guide that lists `rm -rf /` among
// dangerous commands does not tell the agent to run it.
var warnings = []string{"never ", "don't", "do not", "avoid", "no ", "not ", "dangerous", "malicious", "attacker", "inject", "❌", "deny", "denied", "blocklist", "blocked", "forbid", "prohibit"}

// insistence turns a negation into an order: "never forget to run".
var insistence = []string{"forget", "skip", "fail", "hesitate", "optional", "omit"}

// notWarnedAgainst rejects a match that the text just before it on its
// line names as dangerous or forbidden, and a string in a list that the
// line before names as denied or blocked. Only words right before the
// command count, so that no word elsewhere switches the rule off.
func notWarnedAgainst(data []byte, loc []int) bool {
	ls := lineStartAt(data, loc[0])
	before := bytes.ToLower(data[max(ls, loc[0]-80):loc[0]])
	if slices.ContainsFunc(insistence, func(w string) bool { return bytes.Contains(before, []byte(w)) }) {
		return true
	}
	for _, w := range warnings {
		if bytes.Contains(before, []byte(w)) {
			return false
		}
	}
	if ls > 0 && listItem(data, loc[0]) {
		prev := bytes.ToLower(data[lineStartAt(data, ls-1) : ls-1])
		return !bytes.Contains(prev, []byte("deny")) && !bytes.Contains(prev, []byte("block"))
	}
	return true
}

// listItem reports whether the match at off is a quoted item of a list.
func listItem(data []byte, off int) bool {
	return off > 0 && (data[off-1] == '"' || data[off-1] == '\'')
}

var (
	overrideVerbs = []string{"ignore", "disregard", "forget", "set aside", "discard"}
	leadWords     = map[string]bool{"please": true, "now": true, "so": true, "and": true, "then": true, "also": true, "first": true, "just": true, "simply": true, "always": true, "must": true, "should": true, "you": true, "to": true}
)

// imperative accepts an "ignore ..." match only where it is a command
// to the agent: at the start of a sentence or list item, or after words
// such as "please" or "you should", not in "the model may ignore ...".
// Matches that start with another word pass.
func imperative(data []byte, loc []int) bool {
	m := bytes.ToLower(data[loc[0]:loc[1]])
	if !slices.ContainsFunc(overrideVerbs, func(v string) bool { return bytes.HasPrefix(m, []byte(v)) }) {
		return true
	}
	before := bytes.TrimRight(data[lineStartAt(data, loc[0]):loc[0]], " \t*_\"'`")
	if len(before) == 0 || bytes.ContainsAny(before[len(before)-1:], ".:;!?-*>)|") {
		return true
	}
	words := bytes.Fields(bytes.ToLower(before))
	return leadWords[string(words[len(words)-1])]
}

var lineAssignRe = lazy(`^\s*(?:(?:const|let|var|my|local)\s+)?\$?([A-Za-z_]\w*)\s*=\s*(?:await\s+)?[^=]`)

// assignedThenRun accepts a match on the right side of an assignment
// whose variable reaches a call that runs it within the given lines.
func assignedThenRun(lines int) func([]byte, []int) bool {
	return func(data []byte, loc []int) bool {
		m := lineAssignRe.FindSubmatch(data[lineStartAt(data, loc[0]):loc[0]])
		return m != nil && flowsToSink(data, loc[1], string(m[1]), lines)
	}
}

// controlsOff accepts a match that turns the agent's safety controls off, and rejects one
// that is negated, the description of a browser's own sandbox flag in a list of flags
// ("`--no-sandbox`: Disable sandbox"), or a flag that a sentence names as a dangerous
// setting by the harm it does ("misconfigurations (`--yolo`) disable protections").
func controlsOff(data []byte, loc []int) bool {
	if !notNegated(data, loc) {
		return false
	}
	ls := lineStartAt(data, loc[0])
	if browserSandboxFlag.Match(data[ls:loc[0]]) {
		return false
	}
	before := bytes.ToLower(data[max(ls, loc[0]-160):loc[0]])
	if i := bytes.LastIndexAny(before, ".!?;:"); i >= 0 {
		before = before[i+1:]
	}
	named := slices.ContainsFunc([]string{"misconfigur", "insecure", "unsafe", "dangerous", "vulnerab"}, func(w string) bool {
		return bytes.Contains(before, []byte(w))
	})
	return !named || !harmAfter.Match(bytes.ToLower(data[loc[1]:matchLineEnd(data, loc[0], loc[1])]))
}

var (
	// browserSandboxFlag is the start of a line that documents Chromium's sandbox flag.
	browserSandboxFlag = lazy(`^[\s*+|>-]*(?:\d+\.\s*)?\x60?--(?:no-sandbox|disable-setuid-sandbox|disable-gpu-sandbox)\x60?\s*[:|—–-]+\s*$`)
	// harmAfter is what a dangerous setting does, said right after it.
	harmAfter = lazy(`^[\x60)"'\s,/]*(?:(?:and|or)\s+)?(?:\x60[^\x60\n]*\x60[\s,/)]*)*(?:disables?|bypass(?:es)?|removes?|turns? off)\s+(?:the\s+|all\s+|its\s+)?(?:protections?|sandbox\w*|approvals?|safety|confirmations?|guardrails|security)\b`)
)

// notElided rejects a fetch whose only argument is an ellipsis, `exec(requests.get(...))`: a
// pattern named in a list of what to look for, with nothing to fetch.
func notElided(data []byte, loc []int) bool {
	return !elidedFetchRe.Match(data[loc[0]:min(len(data), loc[1]+16)])
}

var elidedFetchRe = lazy(`(?i)(?:urlopen|requests\.get|httpx\.get|fetch|get)\s*\(\s*(?:\.\.\.|…)\s*\)`)
