package audit

import (
	"fmt"
	"slices"
	"strings"
)

var urlRe = lazy(`(?i)https?://[^\s|'"<>()\x60;&]+`)

// trustInstallers lowers to LOW a remote script piped into a shell, or
// downloaded and then run, when its address is one of the repository's
// trusted installers. Addresses
// must match exactly, apart from a trailing slash and the case of the
// scheme and host, so a look-alike host or path is not trusted.
func trustInstallers(hits []hit, installers []string) {
	if len(installers) == 0 {
		return
	}
	for i := range hits {
		h := &hits[i]
		if h.RuleID != "SG-EXE-005" && h.RuleID != "SG-EXE-019" || h.tags&tagObfuscation != 0 {
			continue
		}
		urls := urlRe.FindAllString(h.content, -1)
		if len(urls) == 1 && slices.ContainsFunc(installers, func(s string) bool { return sameURL(s, urls[0]) }) {
			h.Severity = Low
			h.Message += " The installer is on the repository's list of trusted installers."
		}
	}
}

func sameURL(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimSuffix(strings.TrimSpace(s), "/")
		scheme, rest, _ := strings.Cut(s, "://")
		host, p, _ := strings.Cut(rest, "/")
		return strings.ToLower(scheme) + "://" + strings.ToLower(host) + "/" + p
	}
	return norm(a) == norm(b)
}

// combine applies the combination rules: findings that are each of some
// concern and together make an attack. They join findings of one file
// only: a skill that documents an API in one file and reads a setting in
// another has not combined the two.
func combine(hits []hit) []hit {
	activeContent(hits)
	var out []hit
	for _, group := range byFile(hits) {
		out = append(out, combineFile(group)...)
	}
	return out
}

// byFile groups hits by file, in the order files first appear.
func byFile(hits []hit) [][]hit {
	index := map[string]int{}
	var groups [][]hit
	for _, h := range hits {
		i, ok := index[h.File]
		if !ok {
			i = len(groups)
			index[h.File] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], h)
	}
	return groups
}

// activeContent raises script in an HTML or SVG file to high when the same
// file also obfuscates or sends data.
func activeContent(hits []hit) {
	for i := range hits {
		h := &hits[i]
		if h.RuleID != "SG-TREE-012" || h.Severity >= High {
			continue
		}
		if o, ok := first(hits, func(x hit) bool {
			return x.File == h.File && x.Severity >= Medium && x.tags&(tagObfuscation|tagSink) != 0
		}); ok {
			h.Severity = High
			h.Message = fmt.Sprintf("%s holds script, and the same file %s (%s, %s): active content that hides or sends data is an attack; remove the script",
				h.File, map[bool]string{true: "obfuscates", false: "sends data"}[o.tags&tagObfuscation != 0], o.RuleID, where(o))
		}
	}
}

// combineFile applies the combination rules to the hits of one file.
func combineFile(hits []hit) []hit {
	fp := fingerprinter{}
	var out []hit
	emit := func(id string, anchor hit, parts []hit, msg string) {
		h := anchor
		h.rule, h.RuleID, h.Severity = rule(id), id, rule(id).Severity
		h.tags = 0
		h.Message = msg
		var keys []string
		for _, p := range parts {
			keys = append(keys, p.Fingerprint)
		}
		slices.Sort(keys)
		h.content = strings.Join(keys, ",")
		h.Fingerprint = fp.next(id, h.File, h.content)
		out = append(out, h)
	}
	sourceAndSink(hits, emit)
	obfuscatedExecution(hits, emit)
	concealment(hits, emit)
	downloadAndRun(hits, emit)
	return out
}

type emitFunc func(id string, anchor hit, parts []hit, msg string)

func first(hits []hit, ok func(hit) bool) (hit, bool) {
	for _, h := range hits {
		if ok(h) {
			return h, true
		}
	}
	return hit{}, false
}

func where(h hit) string {
	if h.Line > 0 {
		return fmt.Sprintf("%s:%d", h.File, h.Line)
	}
	return h.File
}

// dotenvLoader matches code that loads a .env file into the process's
// environment, as scripts do to find their own API key: a source of one
// setting, not a read of data to send.
var dotenvLoader = lazy(`(?i)load_dotenv|dotenv\.config|require\(\s*['"]dotenv|from\s+dotenv\s+import|dotenv/config`)

func sourceAndSink(hits []hit, emit emitFunc) {
	for _, src := range hits {
		if src.tags&tagSource == 0 || dotenvLoader.MatchString(src.content) {
			continue
		}
		sink, ok := first(hits, func(h hit) bool {
			return h.tags&tagSink != 0 && h.Fingerprint != src.Fingerprint && (src.RuleID != "SG-CRED-002" || near(src, h))
		})
		if ok {
			emit("SG-COMB-001", sink, []hit{src, sink}, fmt.Sprintf(
				"credentials or environment are read (%s, %s) and sent off the machine (%s, %s): together this is exfiltration; remove one or the other",
				src.RuleID, where(src), sink.RuleID, where(sink)))
			return
		}
	}
}

// near reports whether two hits of a file are within a few lines: a .env
// file read for a script's own settings far from where it calls its API
// is configuration, while reading it right before sending is exfiltration.
func near(a, b hit) bool {
	d := a.Line - b.Line
	return a.Line > 0 && b.Line > 0 && -5 <= d && d <= 5
}

func obfuscatedExecution(hits []hit, emit emitFunc) {
	done := map[string]bool{}
	for _, x := range hits {
		if x.tags&tagExecution == 0 || x.Severity < Medium || done[x.File] {
			continue
		}
		o, ok := first(hits, func(h hit) bool {
			return h.File == x.File && h.tags&tagObfuscation != 0
		})
		if !ok {
			continue
		}
		done[x.File] = true
		emit("SG-COMB-002", x, []hit{o, x}, fmt.Sprintf(
			"code execution (%s, %s) together with obfuscation (%s, %s) in the same file: hiding what runs is what attacks do; write the commands out plainly",
			x.RuleID, where(x), o.RuleID, where(o)))
	}
}

func concealment(hits []hit, emit emitFunc) {
	c, ok := first(hits, func(h hit) bool { return h.tags&tagConcealment != 0 })
	if !ok {
		return
	}
	x, ok := first(hits, func(h hit) bool {
		return h.Severity >= High && h.Fingerprint != c.Fingerprint && h.tags&tagConcealment == 0
	})
	if !ok {
		return
	}
	emit("SG-COMB-003", x, []hit{c, x}, fmt.Sprintf(
		"a high-severity finding (%s, %s) in a skill that also hides things from the user (%s, %s): concealment makes it an attack; remove both",
		x.RuleID, where(x), c.RuleID, where(c)))
}

// downloadAndRun combines a download with an executable bit, or an
// installer package with quarantine removal: packages such as .deb or
// .msi are installed, not made executable, so a chmod elsewhere in the
// skill says nothing about them.
func downloadAndRun(hits []hit, emit emitFunc) {
	for _, d := range hits {
		if d.tags&tagDownload == 0 {
			continue
		}
		want := tagQuarantine
		if runnableDownload(d.content) {
			want |= tagExecBit
		}
		if x, ok := first(hits, func(h hit) bool { return h.tags&want != 0 }); ok {
			emitDownload(d, x, emit)
			return
		}
	}
}

var packageExts = set("deb", "rpm", "msi", "msix", "appx", "pkg", "dmg", "apk")

func runnableDownload(content string) bool {
	u, _, _ := strings.Cut(strings.TrimRight(content, " \t\r\n'\"<>().,;:!"), "?")
	return !packageExts[extOf(u)]
}

func emitDownload(d, x hit, emit emitFunc) {
	emit("SG-COMB-004", d, []hit{d, x}, fmt.Sprintf(
		"an executable is downloaded (%s) and made runnable (%s, %s): the skill installs a program nobody reviewed; ship the source or use a package manager",
		where(d), x.RuleID, where(x)))
}
