package audit

import (
	"bytes"
	"path"
	"regexp"
	"strings"
)

var findFilters = []string{"-name", "-iname", "-path", "-ipath", "-regex", "-mtime", "-mmin", "-newer", "-user", "-size", "-empty", "-perm", "-atime", "-ctime"}

// wholeTreeFind rejects a find that deletes only files it filters by
// name, age or size; other matches of the rule pass.
func wholeTreeFind(data []byte, loc []int) bool {
	m := strings.ToLower(string(data[loc[0]:loc[1]]))
	if !strings.HasPrefix(m, "find") {
		return true
	}
	for _, f := range findFilters {
		if strings.Contains(m, f) {
			return false
		}
	}
	return true
}

var (
	urlPathRe   = regexp.MustCompile(`(?i)https?://[^\s'"\x60|;&)<>]+`)
	outputArgRe = regexp.MustCompile(`(?i)(?:^|\s)(?:-[a-z]*o|--output(?:-document)?|-outfile|>)\s*=?\s*["']?([^\s'"\x60;&|<>]+)`)
)

// runsDownload accepts a download followed by a run only when what runs
// is the file the download wrote: the last part of its address or the
// name given with -o, -O, -OutFile or a redirection.
func runsDownload(data []byte, loc []int) bool {
	for g := 2; g+1 < len(loc); g += 2 {
		if loc[g] < 0 {
			continue
		}
		raw := string(data[loc[g]:loc[g+1]])
		target := fileBase(raw)
		between := data[loc[0]:loc[g]]
		if target == "" || verified.Match(between) {
			return false
		}
		fromURL, named := downloadNames(between)
		pathLike := strings.ContainsAny(raw, `./\`)
		return named[target] || pathLike && fromURL[target]
	}
	return false
}

// verified matches a checksum or signature check of a download, the
// remedy the rule asks for.
var verified = regexp.MustCompile(`(?i)\b(?:sha(?:1|256|512)sum|shasum)\b[^\n]*(?:\s-c\b|--check\b)|\bgpg2?\s+--verify\b|\bcosign\s+verify|\bminisign\s+-v`)

// downloadNames returns the base names of the files a download command
// may have written: those its addresses end in, and those it names with
// an output flag or a redirection.
func downloadNames(cmd []byte) (fromURL, named map[string]bool) {
	fromURL, named = map[string]bool{}, map[string]bool{}
	for _, u := range urlPathRe.FindAll(cmd, -1) {
		s, _, _ := strings.Cut(string(u), "?")
		s, _, _ = strings.Cut(s, "#")
		if _, p, ok := strings.Cut(strings.SplitN(s, "://", 2)[1], "/"); ok {
			if b := fileBase(p); b != "" {
				fromURL[b] = true
			}
		}
	}
	for _, m := range outputArgRe.FindAllSubmatch(cmd, -1) {
		if b := fileBase(string(m[1])); b != "" && b != "-" {
			named[b] = true
		}
	}
	return fromURL, named
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
	assignRe = regexp.MustCompile(`^\s*(?:(?:const|let|var|my|local)\s+)?\$?([A-Za-z_]\w*)\s*=\s*(.*)$`)
	sinkRe   = regexp.MustCompile(`(?i)(?:\b(?:exec|eval|execfile|os\.system|os\.popen|subprocess\.\w+|execsync|spawnsync|spawn|system|popen|passthru|shell_exec|iex|invoke-expression)|\bnew\s+function)\s*\(\s*(?:compile\s*\(\s*)?(?:\[\s*)?\$?([A-Za-z_]\w*)|(?i)\b(?:iex|invoke-expression)\s+\$([A-Za-z_]\w*)`)
	wordRe   = regexp.MustCompile(`[A-Za-z_]\w*`)
)

// taintedSink accepts a match whose first group names a variable that,
// directly or through later assignments, reaches a call that evaluates
// or runs it within the given number of lines.
func taintedSink(lines int) func([]byte, []int) bool {
	return func(data []byte, loc []int) bool {
		if len(loc) < 4 || loc[2] < 0 {
			return false
		}
		return flowsToSink(data, loc[1], string(data[loc[2]:loc[3]]), lines)
	}
}

// taintedSinkOr is taintedSink for rules whose other alternatives match
// without a variable; those pass as they are.
func taintedSinkOr(lines int) func([]byte, []int) bool {
	check := taintedSink(lines)
	return func(data []byte, loc []int) bool {
		if len(loc) < 4 || loc[2] < 0 {
			return true
		}
		return check(data, loc)
	}
}

// flowsToSink follows variable v through the lines after offset from.
func flowsToSink(data []byte, from int, v string, lines int) bool {
	tainted := map[string]bool{v: true}
	rest := data[from:min(len(data), from+maxAnchor*2)]
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
	copyVerbRe   = regexp.MustCompile(`(?i)^(?:cp|scp|rsync|rclone)\b`)
	uploadVerbRe = regexp.MustCompile(`(?i)^(?:curl|wget)\b`)
	uploadArg    = regexp.MustCompile(`(?i)(?:@|\s-T\s*|--upload-file[\s=]+|--post-file[\s=]+)["']?(?:~|\$HOME|\$\{HOME\}|/home/|/Users/|/root)`)
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

// warnings are words with which documents name a command as something
// not to run: a guide that lists `rm -rf /` among dangerous commands
// does not tell the agent to run it.
var warnings = []string{"dangerous", "malicious", "attacker", "inject", "never ", "don't run", "do not run", "❌", "deny", "denied", "blocklist", "blocked", "forbid", "prohibit", "warning", "unsafe", "catastroph", "vulnerab", "exploit"}

// notWarnedAgainst rejects a match whose line, or one of the two lines
// before it, names it as dangerous.
func notWarnedAgainst(data []byte, loc []int) bool {
	s := lineStartAt(data, loc[0])
	for i := 0; i < 2 && s > 0; i++ {
		s = lineStartAt(data, s-1)
	}
	ctx := bytes.ToLower(data[s:lineEndAt(data, loc[0])])
	for _, w := range warnings {
		if bytes.Contains(ctx, []byte(w)) {
			return false
		}
	}
	return true
}
