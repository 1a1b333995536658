package codeflow

import (
	"cmp"
	"slices"
	"strings"
)

// taint records where a value's data came from.
type taint uint8

const (
	tSecret  taint = 1 << iota // an environment variable named like a secret, a keychain
	tEnv                       // the whole environment
	tCred                      // a credential file, or the agent's conversation on disk
	tFetched                   // content fetched from the network
)

const sensitive = tSecret | tEnv | tCred

// vkind says what a value is, beyond its data.
type vkind uint8

const (
	vData    vkind = iota
	vModule        // a module or a callable by qualified name, in s
	vClient        // a connection: an HTTP session, socket, SMTP or FTP client
	vFile          // an open file, at path
	vFunc          // a function the skill defines
	vResolve       // a promise's resolve or reject: what it is called with goes to acc
)

// unknown stands for a part of a string that is not known before run time.
const unknown = "\x00"

// maxText bounds the text a value carries.
const maxText = 2048

// value is what an expression evaluates to.
type value struct {
	t      taint
	kind   vkind
	s      string // known text, unknown parts as unknown
	built  bool   // the text was put together from more than one literal
	hidden bool   // the text was decoded, reversed or spelled in character codes
	from   string // where sensitive or fetched data came from
	secret string // the first environment variable named like a secret it holds
	// secrets are the names of all such variables it holds, up to maxSecrets.
	secrets []string
	host    string // a client's or request's destination
	channel string
	path    string // a file's path
	write   bool   // a file opened for writing
	fn      *fnDef
	acc     *value // for vResolve
	// environ is set on the environment itself (os.environ, process.env), so that an
	// item read from it by name is judged by that name.
	environ bool
	// items are the values of a list or tuple literal, up to maxItems.
	items []value
}

func dataOf(s string) value { return value{s: s} }

func unknownValue() value { return value{s: unknown} }

// join is a value holding the data of both, as a container or an
// unknown operation on them holds it.
func join(a, b value) value {
	out := value{t: a.t | b.t, s: unknown, built: a.built || b.built, hidden: a.hidden || b.hidden}
	out.from = pickFrom(a, b)
	out.secrets = mergeNames(a.secrets, b.secrets)
	if len(out.secrets) > 0 {
		out.secret = out.secrets[0]
	}
	out.host = cmp.Or(a.host, b.host)
	return out
}

const maxSecrets = 8

// mergeNames is the union of two short lists of names, in order.
func mergeNames(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := append([]string(nil), a...)
	for _, n := range b {
		if len(out) < maxSecrets && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func pickFrom(a, b value) string {
	switch {
	case a.t&sensitive != 0:
		return a.from
	case b.t&sensitive != 0:
		return b.from
	}
	return cmp.Or(a.from, b.from)
}

// concat is a + b as strings.
func concat(a, b value) value {
	out := join(a, b)
	out.s = clip(textOf(a) + textOf(b))
	out.built = true
	return out
}

// textOf is the known text of v, or unknown.
func textOf(v value) string {
	if v.kind == vData && v.s != "" {
		return v.s
	}
	return unknown
}

func clip(s string) string {
	if len(s) > maxText {
		return s[:maxText]
	}
	return s
}

// known reports whether v's text is known in full.
func (v value) known() bool { return v.kind == vData && !strings.Contains(v.s, unknown) }

// shown is v's text for a message: unknown parts as "…".
func (v value) shown() string { return strings.ReplaceAll(v.s, unknown, "…") }

// hostOf returns the host of a URL in the known start of s.
func hostOf(s string) string {
	i := strings.Index(s, "://")
	if i < 0 || i > 10 {
		return ""
	}
	rest := s[i+3:]
	if j := strings.IndexAny(rest, "/?#"+unknown); j >= 0 {
		if rest[j:j+1] == unknown {
			return ""
		}
		rest = rest[:j]
	}
	if k := strings.LastIndexByte(rest, '@'); k >= 0 {
		rest = rest[k+1:]
	}
	if k := strings.LastIndexByte(rest, ':'); k >= 0 && !strings.Contains(rest[k:], "]") {
		rest = rest[:k]
	}
	return strings.ToLower(rest)
}
