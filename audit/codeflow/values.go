package codeflow

import (
	"cmp"
	"strconv"
	"strings"
)

const maxItems = 64

// environ is the environment itself, named as the code names it.
func environ(name string) value {
	return value{t: tEnv, s: unknown, from: "the whole environment (" + name + ")", environ: true}
}

// derived is a part of v or something computed from it alone: it holds
// v's data, its text unknown.
func derived(v value) value {
	if v.environ {
		return wholeEnv(v.from)
	}
	return value{t: v.t, s: unknown, from: v.from, secret: v.secret, secrets: v.secrets, host: v.host}
}

// element is an item of v when it is iterated.
func element(v value) value {
	if len(v.items) == 0 {
		return derived(v)
	}
	out := value{s: unknown, hidden: v.hidden}
	for _, it := range v.items {
		out = join(out, it)
	}
	for _, it := range v.items {
		if credFile(it.s) {
			out.s = it.s // a loop over paths reads the credential file among them
			break
		}
	}
	return out
}

// itemAt is the i-th item of v.
func itemAt(v value, i int) value {
	if i < len(v.items) {
		return v.items[i]
	}
	return derived(v)
}

// mergeKeep is v, holding old's data too: a container an item was put in.
func mergeKeep(old, v value) value {
	if old.kind != vData || old.t == 0 && v.t == 0 {
		return v
	}
	m := join(old, v)
	m.items = nil
	return m
}

func appendText(v value, s string) value {
	v.s = clip(v.s + s)
	return v
}

// seq is a list, tuple or set literal.
func (in *interp) seq(n *node, sc *scope, eval func(*node, *scope) value) value {
	v := value{s: unknown}
	var items []value
	for _, k := range n.kids {
		if k.kind == "comment" {
			continue
		}
		iv := eval(k, sc)
		if len(items) < maxItems {
			items = append(items, iv)
			in.steps += len(iv.items) // copying nested lists is work too
		}
		v = join(v, iv)
	}
	v.items = items
	return v
}

// hostKeys are the keys of an options object that name where a request goes.
var hostKeys = map[string]bool{"host": true, "hostname": true, "url": true, "baseurl": true, "base_url": true, "uri": true}

// dict is a dictionary or object literal: it holds the data of its keys and values.
func (in *interp) dict(n *node, sc *scope, eval func(*node, *scope) value) value {
	v := value{s: unknown}
	for _, k := range n.kids {
		switch k.kind {
		case "pair":
			key, val := eval(k.child("key"), sc), eval(k.child("value"), sc)
			v = join(v, join(key, val))
			if hostKeys[strings.ToLower(key.s)] && val.known() && v.host == "" {
				v.host = cmp.Or(hostOf(val.s), strings.ToLower(val.s))
			}
		case "comment":
		default:
			v = join(v, eval(k, sc))
		}
	}
	return v
}

// pyEscape decodes one Python escape sequence.
func pyEscape(e string) string {
	switch e {
	case `\'`:
		return "'"
	case "\\\n":
		return ""
	}
	if len(e) >= 2 && e[1] >= '0' && e[1] <= '7' {
		if n, err := strconv.ParseUint(e[1:], 8, 8); err == nil {
			return string(rune(n))
		}
	}
	if s, err := strconv.Unquote(`"` + e + `"`); err == nil {
		return s
	}
	return e
}

// percent formats f with % as Python does, for the text that is known.
func percent(f string, args value) string {
	items := args.items
	if len(items) == 0 {
		items = []value{args}
	}
	var b strings.Builder
	k := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			b.WriteString(f[i:])
			break
		}
		switch {
		case f[j] == '%':
			b.WriteByte('%')
		case k < len(items):
			b.WriteString(textOf(items[k]))
			k++
		default:
			b.WriteString(unknown)
		}
		i = j
	}
	return clip(b.String())
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
