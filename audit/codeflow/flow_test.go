package codeflow

import (
	"fmt"
	"strings"
	"testing"
)

// flowsOf analyses one unit and returns its flows in a short form:
// "exfil HTTP evil.example <from>", "rce", "cmd <text>", "saved <path>".
func flowsOf(t *testing.T, lang Lang, code string) []string {
	t.Helper()
	flows, err := Analyze([]Unit{{Lang: lang, Code: []byte(code)}})
	if err != nil {
		t.Fatal(err)
	}
	return short(flows)
}

func short(flows []Flow) []string {
	var out []string
	for _, f := range flows {
		switch f.Kind {
		case Exfiltration:
			out = append(out, fmt.Sprintf("exfil %s %s %s", f.Channel, f.Host, firstOf(f.Secret, kindOfWhole(f))))
		case RemoteExec:
			out = append(out, "rce "+f.Channel)
		case Command:
			out = append(out, "cmd "+f.Text)
		case Download:
			out = append(out, "saved "+f.Text)
		}
	}
	return out
}

func kindOfWhole(f Flow) string {
	if f.Whole {
		return "whole"
	}
	return "?"
}

func has(flows []string, want string) bool {
	for _, f := range flows {
		if strings.HasPrefix(f, want) {
			return true
		}
	}
	return false
}
