package audit

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// frontMatterHits checks the frontmatter of the skill's SKILL.md and
// keeps it for the diff rules.
func frontMatterHits(t *treeScan, u *unit) []hit {
	fm, problem, _ := parseFrontMatter(u.orig)
	t.front = fm
	var out []hit
	if problem != "" {
		h := newHit(rule("SG-MD-001"), u.file, 0, lineEndAt(u.orig, 0), problem)
		h.Message = problem
		out = append(out, h)
	}
	if fm == nil {
		return out
	}
	for _, tool := range fm.tools {
		if why := unrestrictedTool(tool); why != "" {
			h := newHit(rule("SG-MD-002"), u.file, fm.toolsOff, fm.toolsOff, tool)
			h.Message = "allowed-tools grants " + why + ": the agent may use it without asking; restrict it to the commands or domains the skill needs"
			h.Snippet = tool
			out = append(out, h)
		}
	}
	if h, ok := descriptionHit(u.file, fm); ok {
		out = append(out, h)
	}
	return append(out, frontMatterControls(u.file, fm)...)
}

// descriptionHit applies the description rule to the description as
// written and, when that differs, with invisible characters removed and
// look-alike letters folded.
func descriptionHit(file string, fm *frontMatter) (hit, bool) {
	texts := []string{fm.description}
	if n, changed := normalize([]byte(fm.description)); changed {
		texts = append(texts, string(n.text))
	}
	for _, d := range texts {
		folded := foldASCII(d)
		if !mayClaimEndorsement(folded) {
			continue
		}
		if loc := rule("SG-INJ-010").compiled().re.FindStringIndex(folded); loc != nil {
			m := d[loc[0]:loc[1]]
			h := newHit(rule("SG-INJ-010"), file, fm.descOff, fm.descOff, m)
			h.Snippet = visibleString(m)
			return h, true
		}
	}
	return hit{}, false
}

// endorsementWords holds, for every branch of the pattern of SG-INJ-010,
// a word the branch cannot match without, each at the start of a word.
var endorsementWords = []string{"official", "endorsed", "approved", "verified", "certified",
	"recommended", "sanctioned", "authori", "every", "all", "any", "each", "always", "must"}

// mayClaimEndorsement reports whether folded, a description with ASCII
// letters in lower case, can match SG-INJ-010. The pattern is costly and
// most descriptions hold none of its words. Text with other than ASCII
// always runs it: case-insensitive matching also folds ſ and K (Kelvin)
// to s and k.
func mayClaimEndorsement(folded string) bool {
	for i := 0; i < len(folded); i++ {
		if folded[i] >= utf8.RuneSelf {
			return true
		}
	}
	for _, w := range endorsementWords {
		if hasWordStart(folded, w) {
			return true
		}
	}
	return false
}

// hasWordStart reports whether w occurs in s where a word starts, as the
// pattern's \b demands.
func hasWordStart(s, w string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		if i == 0 || !isWordByte(s[i-1]) {
			return true
		}
		off = i + 1
	}
}

// collectDomains records the first link to each host, for the diff rule
// about new outbound domains.
func collectDomains(t *treeScan, file string, data []byte, li lineIndex) {
	for off := 0; len(t.domains) < 1000; {
		i := bytes.Index(data[off:], []byte("://"))
		if i < 0 {
			return
		}
		i += off
		off = i + 3
		s := i
		for s > 0 && isSchemeByte(data[s-1]) {
			s--
		}
		scheme := strings.ToLower(string(data[s:i]))
		if scheme != "http" && scheme != "https" && scheme != "ws" && scheme != "wss" && scheme != "ftp" {
			continue
		}
		host := hostAt(data, i+3)
		if host == "" || t.domains[host].RuleID != "" {
			continue
		}
		h := newHit(rule("SG-DIFF-001"), file, s, i+3+len(host), host)
		h.Line, h.Column = li.position(data, s)
		h.Snippet = excerpt(data, s, min(len(data), i+3+len(host)), nil)
		h.Message = "new outbound domain " + host + ": the skill now sends the agent to a host the previous version did not name; check that it is trusted"
		t.domains[host] = h
	}
}

func isSchemeByte(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

func hostAt(data []byte, i int) string {
	j := i
	for j < len(data) && j-i < 255 && !strings.ContainsRune("/?#\\ \t\r\n\"'<>()[]{}`|,;", rune(data[j])) {
		j++
	}
	host := string(data[i:j])
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if c := strings.LastIndexByte(host, ':'); c >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:c]
	}
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// execBitHits reports files whose executable bit base did not have; with
// no base every executable file is newly so.
func execBitHits(head, base *treeScan) []hit {
	var out []hit
	for _, p := range slices.Sorted(maps.Keys(head.execs)) {
		if base != nil && base.execs[p] {
			continue
		}
		h := newHit(rule("SG-TREE-007"), p, -1, -1, p)
		h.Message = "executable bit set on " + p + ": the file can now be run directly; clear the bit unless the skill runs it, and review what it does"
		out = append(out, h)
	}
	return out
}

// diffHits compares a skill with its base version.
func diffHits(base, head *treeScan) []hit {
	var out []hit
	for _, host := range slices.Sorted(maps.Keys(head.domains)) {
		if _, ok := base.domains[host]; !ok {
			out = append(out, head.domains[host])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(head.runs)) {
		if !base.runs[p] {
			h := newHit(rule("SG-DIFF-002"), p, -1, -1, p)
			h.Message = "new script or binary " + p + ": code the previous version did not have; review what it does before approving"
			out = append(out, h)
		}
	}
	out = append(out, frontMatterDiff(base.front, head.front)...)
	return out
}

func frontMatterDiff(base, head *frontMatter) []hit {
	if head == nil {
		return nil
	}
	var out []hit
	if added := broadened(base, head); len(added) > 0 {
		h := newHit(rule("SG-DIFF-003"), "SKILL.md", head.toolsOff, head.toolsOff, strings.Join(added, " "))
		h.Message = "allowed-tools broadened with " + strings.Join(added, ", ") + ": the agent may now use more tools without asking; check that the skill needs them"
		h.Snippet = bounded(strings.Join(added, " "), maxSnippet)
		h.Line, h.Column = head.toolsAt[0], head.toolsAt[1]
		out = append(out, h)
	}
	if base != nil && base.name != "" && head.name != base.name {
		h := newHit(rule("SG-DIFF-004"), "SKILL.md", head.nameOff, head.nameOff, base.name+" -> "+head.name)
		h.Message = fmt.Sprintf("skill name changed from %q to %q: agents and users that know the old name will not find it; publish it as a new skill if that is meant", base.name, head.name)
		h.Snippet = bounded(head.name, maxSnippet)
		h.Line, h.Column = head.nameAt[0], head.nameAt[1]
		out = append(out, h)
	}
	return out
}

func broadened(base, head *frontMatter) []string {
	if !head.hasTools {
		return nil
	}
	had := map[string]bool{}
	if base != nil {
		for _, t := range base.tools {
			had[strings.ToLower(t)] = true
		}
	}
	var added []string
	for _, t := range head.tools {
		if !had[strings.ToLower(t)] {
			added = append(added, t)
		}
	}
	return added
}

// foldASCII folds ASCII letters to lowercase and keeps every other byte,
// so offsets into the result are offsets into s.
func foldASCII(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] = lowerASCII(b[i])
	}
	return string(b)
}
