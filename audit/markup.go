package audit

import (
	"net/url"
	"path"
	"strings"
)

// markupHits checks the links and the hidden regions of a Markdown or
// HTML file; prior are the file's other findings so far. Other markup,
// such as XML schemas, holds neither links nor text rendered for anyone,
// and the hidden parts of a page with script are the UI of a tool.
func (s *scanner) markupHits(u *unit, prior []hit) []hit {
	prose := u.kind&kindProse != 0
	if !prose && !u.html {
		return nil
	}
	var out []hit
	for _, l := range links(u.text, prose) {
		if h, ok := s.linkHit(u, l); ok && len(out) < 5*maxPerRule {
			out = append(out, h)
		}
	}
	if u.app {
		return out
	}
	for _, r := range hiddenRegions(u.text) {
		out = append(out, regionHits(u, r, prior)...)
	}
	return out
}

var (
	schemeRe      = lazy(`^([a-zA-Z][a-zA-Z0-9+.-]*):`)
	placeholderRe = lazy(`(?i)(?:\{\{?|\$\{|\$\(|%7b|<|\[)[\w.$ -]{0,40}?(?:conversation|chat|histor|secret|token|api.?key|passw|credential|cookie|session|summar|context|prompt|memor|message|environ|user.?(?:data|input|info)|data\b|content|\benv\b)` +
		`|\$\{?[A-Z_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|SESSION|COOKIE)\b`)
)

// linkHit judges one link destination.
func (s *scanner) linkHit(u *unit, l link) (hit, bool) {
	d := strings.TrimSpace(l.dest)
	if d == "" || d[0] == '#' || d[0] == '?' {
		return hit{}, false
	}
	at := func(id, msg string) (hit, bool) {
		h := newHit(rule(id), u.file, l.start, l.end, d)
		if msg != "" {
			h.Message = msg
		}
		return h, true
	}
	if m := schemeRe.FindStringSubmatch(d); m != nil {
		scheme, rest := strings.ToLower(m[1]), d[len(m[0]):]
		switch {
		case codePath(l, scheme, rest):
			return hit{}, false
		case len(scheme) == 1:
			return at("SG-LINK-001", "link to the absolute Windows path "+bounded(d, 80)+": a skill may only refer to its own files; copy what it needs into the skill")
		case scheme == "http" || scheme == "https":
			return dataInURL(u, l, d)
		case scheme == "mailto":
			return hit{}, false
		case l.auto && !dangerousSchemes[scheme]:
			return hit{}, false
		default:
			return at("SG-LINK-002", "link with the "+scheme+": scheme: only http, https, mailto and relative links are allowed, since other schemes read local files or run code when followed")
		}
	}
	if strings.HasPrefix(d, "//") {
		return dataInURL(u, l, d)
	}
	if d[0] == '/' || d[0] == '\\' || d[0] == '~' {
		if privatePath(d) {
			return at("SG-LINK-001", "link to "+bounded(d, 80)+", a private file outside the skill: a skill may only refer to its own files; remove the link")
		}
		return at("SG-LINK-004", "link to the absolute path "+bounded(d, 80)+", which is not part of the skill and breaks once it is installed; link to a web address or copy the file in")
	}
	return s.relativeLink(u, l, d, at)
}

// codePath reports a destination that only looks like it has a scheme: an XML
// element with a one-letter prefix written as an autolink (<w:t>, where a drive
// letter is followed by a slash), or a path of code such as Rust's core::try or
// C++'s std::vector, whose scheme would be followed by a second colon.
func codePath(l link, scheme, rest string) bool {
	if len(scheme) == 1 {
		return l.auto && !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "\\")
	}
	return strings.HasPrefix(rest, ":") && !dangerousSchemes[scheme]
}

// dangerousSchemes read local files or run code when a link is followed;
// an autolink counts only with one of them, since <xsd:element> and
// <std::vector> look like autolinks too.
var dangerousSchemes = set("file", "javascript", "vbscript", "data", "smb", "ms-msdt", "search-ms", "jar", "view-source", "ms-officecmd", "ssh")

// privatePath reports a link target in a home folder, a system folder or
// a hidden folder: where keys, tokens and agent settings live.
func privatePath(p string) bool {
	p = strings.ToLower(strings.ReplaceAll(p, "\\", "/"))
	if strings.HasPrefix(p, "~") {
		return true
	}
	for _, pre := range []string{"/etc/", "/root", "/home/", "/users/", "/proc/", "/sys/", "/var/", "/private/", "/dev/", "c:/users", "/library/", "/opt/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	for _, part := range strings.Split(p, "/") {
		if secretPlaces[part] {
			return true
		}
	}
	return false
}

// secretPlaces are folder and file names where keys and tokens live.
var secretPlaces = set(".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".gcloud", ".config", ".netrc", ".env",
	".git-credentials", ".npmrc", ".pypirc", ".password-store", ".bash_history", ".zsh_history", "id_rsa", "id_ed25519", "credentials")

func (s *scanner) relativeLink(u *unit, l link, d string, at func(id, msg string) (hit, bool)) (hit, bool) {
	p, _, _ := strings.Cut(d, "#")
	p, _, _ = strings.Cut(p, "?")
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" {
		return hit{}, false
	}
	joined := path.Join(path.Dir(u.file), p)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		if privatePath(strings.TrimLeft(joined, "./")) || privatePath(p) {
			return at("SG-LINK-001", "link "+bounded(d, 80)+" leaves the skill for a private file: a skill may only refer to its own files; remove the link")
		}
		return at("SG-LINK-004", "link "+bounded(d, 80)+" leaves the skill folder, so it breaks once the skill is installed; copy what it needs into the skill or link to a web address")
	}
	if s.tree != nil && !s.tree.exists(joined) {
		return at("SG-LINK-003", "link to "+bounded(d, 80)+", which is not in the skill: add the file or fix the link")
	}
	return hit{}, false
}

// dataInURL reports a web link or image whose address carries a slot for
// conversation data or secrets: loading it sends them to the host.
func dataInURL(u *unit, l link, d string) (hit, bool) {
	if _, rest, ok := strings.Cut(d, "//"); ok {
		if i := strings.IndexAny(rest, "/?#"); i >= 0 && (placeholderRe.MatchString(rest[i:]) || langSlot(rest[i:])) {
			what := "link"
			if l.image {
				what = "image"
			}
			h := newHit(rule("SG-EXF-002"), u.file, l.start, l.end, d)
			h.Message = "Markdown " + what + " whose address carries a slot for data (" + bounded(d, 100) +
				"): an agent that fills it in and renders it sends that data to the host; remove the link"
			return h, true
		}
	}
	return hit{}, false
}

var agentRe = lazyPattern(`(?i)\b(?:ai|llm|assistant|agent|model|claude|chatgpt|gpt|copilot|codex|gemini|cursor|bot)s?\s*(?:[:,]|--?)\s*(?:you|please|always|never|do|don'?t|run|execute|ignore|read|send|fetch|remember|follow|when|before|after|first|also)\b`+
	`|\b(?:note|message|instructions?|reminder|attention|hey|dear)\s+(?:to|for)?\s*(?:the\s+|all\s+|any\s+)?(?:ai|llm|assistant|agent|model|claude|copilot|codex|gemini)s?\b`+
	`|\b(?:ai|llm|assistant|agent|model|claude|copilot|codex|gemini)s?\s+(?:must|should|shall)\s+(?:now\s+|also\s+|first\s+|always\s+|silently\s+)?(?:run|execute|send|upload|fetch|download|read|ignore|delete|remove|install|open|post|call|copy|print|output|reply|tell|load|visit|forget|disregard|obey|follow)\b`+
	`|\byou\s+(?:must|should|will|are (?:required|instructed) to|need to|have to)\s+(?:now\s+|also\s+|first\s+|silently\s+|always\s+)?(?:run|execute|send|upload|fetch|download|read|ignore|delete|remove|install|open|post|include|add|append|write|call|copy|print|output|reply|respond|say|tell|forget|disregard)\b`+
	`|\b(?:when|if|before|after|once)\s+you\s+(?:read|see|process|load|open|use|parse)\s+(?:this|these)\b`+
	`|\b(?:system|assistant|ai|agent|developer)\s*(?:message|note|instruction|prompt)?\s*:\s*(?:ignore|disregard|forget|follow|obey|add|include|insert|run|execute|send|upload|fetch|download|delete|remove|install|you|always|never|do not|don'?t)\b`+
	`|\bignore\s+(?:the\s+)?(?:user|human|operator)\b`, false)

// regionHits judges a hidden region: hidden text that addresses the agent
// or holds another finding carries instructions that people do not see.
func regionHits(u *unit, r region, prior []hit) []hit {
	inner := u.text[r.inner[0]:r.inner[1]]
	carries := agentRe.Match(u.folded()[r.inner[0]:min(r.inner[1], r.inner[0]+maxAnchor)])
	for _, h := range prior {
		if h.start >= r.start && h.start < r.end && h.Severity >= Medium && h.rule.Category != "hidden" {
			carries = true
		}
	}
	var out []hit
	add := func(id, msg string) {
		h := newHit(rule(id), u.file, r.start, r.end, string(u.text[r.start:r.end]))
		h.Message = msg
		out = append(out, h)
	}
	switch {
	case carries && r.kind == "hidden HTML element":
		add("SG-HID-006", "hidden HTML element carries instructions for the agent: people reading the rendered page do not see them; remove it or make it visible")
	case carries:
		add("SG-HID-005", r.kind+" carries instructions for the agent: people reading the rendered page do not see them; remove it or make it visible")
	case r.kind == "hidden HTML element" && letters(inner) >= 20:
		add("SG-HID-012", "hidden HTML element holds text that people reading the rendered page do not see: make it visible or remove it")
	}
	if r.kind == "Markdown comment" && len(strings.TrimSpace(string(inner))) > 0 {
		add("SG-HID-009", "Markdown comment idiom hides text from the rendered page while the agent reads it: make it visible or remove it")
	}
	return out
}

func letters(b []byte) int {
	n := 0
	for _, c := range string(b) {
		if c > ' ' && c != '<' && c != '>' {
			n++
		}
	}
	return n
}
