package audit

import (
	"bytes"
	"math"
	"net/netip"
	"strings"
)

var negations = []string{"never ", "not ", "n't ", "avoid ", "no need to", "instead of", "without "}

// notNegated rejects a match that the words just before it deny, as in
// "never use --no-verify".
func notNegated(data []byte, loc []int) bool {
	ls := lineStartAt(data, loc[0])
	before := strings.ToLower(string(data[max(ls, loc[0]-40):loc[0]]))
	for _, n := range negations {
		if strings.Contains(before, n) {
			return false
		}
	}
	return true
}

// noNegationInside rejects a match that denies itself, as in "put the key
// in the header, never in the URL".
func noNegationInside(data []byte, loc []int) bool {
	m := " " + strings.ToLower(string(data[loc[0]:loc[1]])) + " "
	for _, n := range []string{" never ", " not ", "n't ", " instead "} {
		if strings.Contains(m, n) {
			return false
		}
	}
	return true
}

// publicIP accepts a match whose first group is a public IPv4 address.
func publicIP(data []byte, loc []int) bool {
	if len(loc) < 4 || loc[2] < 0 {
		return false
	}
	a, err := netip.ParseAddr(string(data[loc[2]:loc[3]]))
	if err != nil || !a.Is4() {
		return false
	}
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	return !(a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() ||
		a.IsMulticast() || cgnat.Contains(a) || a.Is4() && a.As4()[0] == 0)
}

// keyBody accepts a private key header only when key material follows.
func keyBody(data []byte, loc []int) bool {
	tail := data[loc[0]:min(len(data), max(loc[1], loc[0]+400))]
	run := 0
	for _, b := range tail[bytes.Index(tail, []byte("KEY"))+3:] {
		if 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '+' || b == '/' {
			if run++; run >= 20 {
				return true
			}
		} else if b != '-' {
			run = 0
		}
	}
	return false
}

var placeholders = []string{"xxxx", "your", "here", "changeme", "placeholder", "dummy", "redacted", "<", "${", "...", "****",
	"123456", "abcdef", "000000", "example", "hardcoded", "fake", "sample"}

// notExampleKey rejects the access keys that cloud providers publish in
// their documentation, which end in EXAMPLE or EXAMPLEKEY.
func notExampleKey(data []byte, loc []int) bool {
	return !bytes.Contains(data[loc[0]:loc[1]], []byte("EXAMPLE"))
}

// realSecret accepts a generic secret assignment whose value (group 1)
// is random enough to be a real secret rather than a placeholder.
func realSecret(data []byte, loc []int) bool {
	if len(loc) < 4 || loc[2] < 0 {
		return false
	}
	v := string(data[loc[2]:loc[3]])
	lv := strings.ToLower(v)
	for _, p := range placeholders {
		if strings.Contains(lv, p) {
			return false
		}
	}
	return entropy(v) >= 3.5 && hasDigitAndLetter(v) && !wordsThenDigits.MatchString(v)
}

// wordsThenDigits matches the passwords of examples, such as
// "MyPassword123" or "NewSecurePass456!": words, then digits and a symbol.
var wordsThenDigits = lazy(`^(?:[A-Za-z][a-z]+[-_.]?){1,6}\d{0,6}[!@#$%^&*?.]{0,2}$`)

func hasDigitAndLetter(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.ContainsAny(strings.ToLower(s), "abcdefghijklmnopqrstuvwxyz")
}

// entropy returns the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			e -= p * math.Log2(p)
		}
	}
	return e
}

var hostLike = lazy(`://|\$|%|[A-Za-z0-9-]\.[A-Za-z]`)

// pipeHasSource accepts a download piped into a shell only when the
// download names something to fetch: an address, a host or a variable,
// not a placeholder such as "curl ... | sh".
// A pipe into an interpreter that runs inline code or a module, such as
// `| python3 -c "import json…"` or `| python -m json.tool`, reads the
// download as data, unless that code executes what it reads.
func pipeHasSource(data []byte, loc []int) bool {
	end := matchLineEnd(data, loc[0], loc[1])
	if i := bytes.IndexByte(data[loc[1]:end], '`'); i >= 0 {
		end = loc[1] + i // a command in a code span ends with it
	}
	if !hostLike.Match(data[loc[0]:end]) {
		return false
	}
	rest := data[loc[1]:end]
	if bytes.IndexByte(data[loc[0]:loc[1]], '|') >= 0 && localScriptRe.Match(rest) {
		return false
	}
	m := inlineCodeRe.FindSubmatch(rest)
	if m == nil || !inlineFlag(interpreterBefore(data, loc[1]), string(m[1])) {
		return true
	}
	return stdinExecRe.Match(rest)
}

var (
	// localScriptRe is a script file of the skill named after the interpreter, which runs
	// that file and reads the download piped in as its data: `| python scripts/report.py`.
	localScriptRe = lazy(`^\s+(?:\./)?[\w-]+(?:\.[\w-]+)*(?:/[\w-]+(?:\.[\w-]+)*)*\.(?:py|sh|bash|js|mjs|cjs|ts|pl|rb|php)(?:\s|$|[;&|)])`)
	inlineCodeRe  = lazy(`^\s+-([a-zA-Z]{1,2})\b`)
	stdinExecRe   = lazy(`(?i)\b(?:exec|eval|compile|system|popen|spawn|execsync|execfile|runpy|run_path)\s*\(|\$\(\s*cat\b|\bsource\b`)
)

// interpreterBefore returns the word that ends at end, such as python3.
func interpreterBefore(data []byte, end int) string {
	i := end
	for i > 0 && (isWordByte(data[i-1]) || data[i-1] == '.') {
		i--
	}
	return strings.ToLower(string(data[i:end]))
}

// inlineFlag reports whether flag makes interpreter run code given on its
// command line rather than a script read from standard input.
func inlineFlag(interpreter, flag string) bool {
	switch {
	case strings.HasPrefix(interpreter, "python"):
		return flag == "c" || flag == "m"
	case interpreter == "node":
		return flag == "e" || flag == "p"
	case interpreter == "perl":
		return flag == "e" || flag == "E" || flag == "ne" || flag == "pe" || flag == "n" || flag == "p"
	case interpreter == "ruby":
		return flag == "e" || flag == "ne" || flag == "pe"
	case interpreter == "php":
		return flag == "r"
	case strings.HasSuffix(interpreter, "sh"):
		return flag == "c"
	}
	return false
}

// shellStart accepts env, printenv or export -p only where a shell command
// starts: at the start of a line, after a separator or sudo, or inside
// backticks or $( ), so that "#!/usr/bin/env" and "myenv" are left alone.
func shellStart(data []byte, loc []int) bool {
	m := data[loc[0]:loc[1]]
	if !bytes.HasPrefix(m, []byte("env")) && !bytes.HasPrefix(m, []byte("printenv")) && !bytes.HasPrefix(m, []byte("export")) {
		// Commands are lower case: "Env" and "ENV" are names, not env.
		lower := bytes.ToLower(m)
		return !bytes.HasPrefix(lower, []byte("env")) && !bytes.HasPrefix(lower, []byte("printenv")) && !bytes.HasPrefix(lower, []byte("export"))
	}
	before := bytes.TrimRight(data[lineStartAt(data, loc[0]):loc[0]], " \t")
	before = bytes.TrimSuffix(before, []byte("sudo"))
	before = bytes.TrimRight(before, " \t")
	if len(before) == 0 {
		return true
	}
	switch before[len(before)-1] {
	case ';', '&', '|', '>':
		return true
	case '(':
		return len(before) > 1 && before[len(before)-2] == '$'
	case '`':
		// A backtick opens a code span or a command substitution only
		// when it is the odd one of its line; an even one closes one.
		return bytes.Count(before, []byte("`"))%2 == 1
	}
	return false
}
