package targetdir

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encodeManifest returns the manifest file's content: what json.MarshalIndent(m, "", "  ")
// gives, byte for byte. A manifest whose strings are all plain (see plainJSON) is written by
// an encoder of its own shape, several times faster on the 10,000 entries of a large target;
// any other goes through encoding/json.
func encodeManifest(m *manifest) ([]byte, error) {
	if out, ok := encodePlainManifest(m); ok {
		return out, nil
	}
	return json.MarshalIndent(m, "", "  ")
}

// encodePlainManifest writes m as MarshalIndent would, or reports false when a string of it
// needs an escape other than \n.
func encodePlainManifest(m *manifest) ([]byte, bool) {
	if m.Skills == nil {
		return nil, false
	}
	names := make([]string, 0, len(m.Skills))
	size := 64
	for name, e := range m.Skills {
		names = append(names, name)
		size += 128 + len(name) + len(e.Source) + len(e.Written) + len(e.Mode) + len(e.Pending) + len(e.Stat)
	}
	slices.Sort(names)
	out := make([]byte, 0, size)
	out = append(out, "{\n  \"version\": "...)
	out = strconv.AppendInt(out, int64(m.Version), 10)
	out = append(out, ",\n  \"skills\": {"...)
	ok := true
	for i, name := range names {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, "\n    "...)
		out, ok = appendPlainJSON(out, name)
		if !ok {
			return nil, false
		}
		if out, ok = appendEntry(out, m.Skills[name]); !ok {
			return nil, false
		}
	}
	if len(names) > 0 {
		out = append(out, "\n  "...)
	}
	out = append(out, "}\n}"...)
	return out, true
}

// appendEntry writes one manifest entry after its key, as MarshalIndent would at its depth.
func appendEntry(out []byte, e manifestEntry) ([]byte, bool) {
	fields := []struct {
		key, value string
		omitEmpty  bool
	}{
		{"source", e.Source, false},
		{"written", e.Written, false},
		{"mode", string(e.Mode), false},
		{"pending", e.Pending, true},
		{"stat", e.Stat, true},
	}
	out = append(out, ": {"...)
	first, ok := true, true
	for _, f := range fields {
		if f.omitEmpty && f.value == "" {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, "\n      \""...)
		out = append(out, f.key...)
		out = append(out, "\": "...)
		if out, ok = appendPlainJSON(out, f.value); !ok {
			return nil, false
		}
	}
	return append(out, "\n    }"...), true
}

// appendPlainJSON writes s as a JSON string, or reports false when s is not plain: valid
// UTF-8 whose only character that encoding/json escapes is the newline. Quotes, backslashes,
// other control characters, <, >, & and the line and paragraph separators are left to it.
func appendPlainJSON(out []byte, s string) ([]byte, bool) {
	out = append(out, '"')
	for i := 0; i < len(s); {
		if n := asIsRun(s[i:], true); n > 0 {
			out = append(out, s[i:i+n]...)
			i += n
			continue
		}
		c := s[i]
		switch {
		case c == '\n':
			out = append(out, '\\', 'n')
			i++
			continue
		case c < utf8.RuneSelf: // what asIsRun stops at and encoding/json escapes
			return nil, false
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
			return nil, false
		}
		out = append(out, s[i:i+n]...)
		i += n
	}
	return append(out, '"'), true
}
