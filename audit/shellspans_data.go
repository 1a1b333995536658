package audit

import (
	"bytes"
	"encoding/json"

	"gopkg.in/yaml.v3"
)

// Data files keep shell code in strings: the scripts of a package.json
// and the run: steps of a CI workflow. Each string is read as the shell
// code it is, decoded, and its lines are placed on the lines it came from.

const maxShellDocs = 16 // YAML documents read per file

// packageScriptSpans returns the values of the "scripts" object of a
// package.json; a file that is not valid JSON has none.
func packageScriptSpans(text []byte) []shellSpan {
	if len(text) > maxShellParse || !bytes.Contains(text, []byte(`"scripts"`)) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "scripts" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		return scriptValues(dec, text)
	}
	return nil
}

// scriptValues reads the object dec is at and returns its string values
// as spans, each placed on the line of its JSON string.
func scriptValues(dec *json.Decoder, text []byte) []shellSpan {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []shellSpan
	for dec.More() && len(out) < maxShellSpans {
		if _, err := dec.Token(); err != nil {
			return out
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return out
		}
		var script string
		end := int(dec.InputOffset())
		start := end - len(raw)
		if start < 0 || json.Unmarshal(raw, &script) != nil {
			continue
		}
		out = append(out, oneLineSpan(start, end, script))
	}
	return out
}

// oneLineSpan is shell code decoded from the bytes start:end of one line
// of the unit: every line of it is placed there.
func oneLineSpan(start, end int, code string) shellSpan {
	src := []byte(code)
	lineAt := make([]int, bytes.Count(src, []byte("\n"))+1)
	for i := range lineAt {
		lineAt[i] = start
	}
	return shellSpan{start: start, src: src, covers: [][2]int{{start, end}}, lineAt: lineAt}
}

// yamlRunSpans returns the values of the run: keys of a YAML file, such
// as the steps of a CI workflow; a file that is not valid YAML has none.
func yamlRunSpans(text []byte) []shellSpan {
	if len(text) > maxShellParse || !bytes.Contains(text, []byte("run:")) {
		return nil
	}
	starts := append([]int{0}, newlines(text)...)
	for i := 1; i < len(starts); i++ {
		starts[i]++
	}
	var out []shellSpan
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for range maxShellDocs {
		var doc yaml.Node
		if dec.Decode(&doc) != nil {
			break
		}
		out = runValues(&doc, text, starts, out, 0)
	}
	return out
}

// runValues appends the run: values under n to out; aliases are not
// followed, so that each value is read once.
func runValues(n *yaml.Node, text []byte, starts []int, out []shellSpan, depth int) []shellSpan {
	if depth > maxShellDepth*8 || len(out) >= maxShellSpans {
		return out
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 1 && n.Content[i-1].Value == "run" && c.Kind == yaml.ScalarNode {
			if sp, ok := runSpan(n.Content[i-1], c, text, starts); ok {
				out = append(out, sp)
			}
			continue
		}
		if c.Kind != yaml.AliasNode {
			out = runValues(c, text, starts, out, depth+1)
		}
	}
	return out
}

// runSpan returns the span of a run: value. A literal block keeps its
// lines, each placed on the line it came from; any other value is placed
// on the line it starts on.
func runSpan(key, v *yaml.Node, text []byte, starts []int) (shellSpan, bool) {
	line := v.Line - 1
	if line < 0 || line >= len(starts) {
		return shellSpan{}, false
	}
	if v.Style&yaml.LiteralStyle == 0 {
		start := starts[line]
		return oneLineSpan(start, lineEndAt(text, start), string(actionsExprs([]byte(v.Value)))), true
	}
	src := actionsExprs([]byte(v.Value))
	n := bytes.Count(src, []byte("\n")) + 1
	indent := key.Column - 1
	sp := shellSpan{src: src}
	for l := line + 1; l < len(starts) && len(sp.lineAt) < n; l++ {
		s, e := starts[l], lineEndAt(text, starts[l])
		body := text[s:e]
		if t := bytes.TrimLeft(body, " "); len(bytes.TrimSpace(t)) > 0 && len(body)-len(t) <= indent {
			break
		}
		sp.lineAt = append(sp.lineAt, s)
		sp.covers = append(sp.covers, [2]int{s, e})
	}
	for len(sp.lineAt) > 0 && len(bytes.TrimSpace(text[sp.lineAt[len(sp.lineAt)-1]:sp.covers[len(sp.covers)-1][1]])) == 0 {
		sp.lineAt, sp.covers = sp.lineAt[:len(sp.lineAt)-1], sp.covers[:len(sp.covers)-1]
	}
	if len(sp.lineAt) == 0 {
		return shellSpan{}, false
	}
	sp.start = sp.lineAt[0]
	return sp, true
}

// actionsExprs reads each ${{ expression }} of a workflow, which the CI
// fills in before the shell runs, as a shell variable whose value is
// unknown.
func actionsExprs(code []byte) []byte {
	return opaqueExprs(code, []byte("${{"), []byte("}}"))
}
