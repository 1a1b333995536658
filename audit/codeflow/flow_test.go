package codeflow

import (
	"cmp"
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
			out = append(out, fmt.Sprintf("exfil %s %s %s", f.Channel, f.Host, cmp.Or(f.Secret, kindOfWhole(f))))
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

// flowCase is a program and the flow it must hold, in the short form of short.
type flowCase struct{ name, code, want string }

// checkFlows analyses each case in lang and fails when none of its flows starts with want.
func checkFlows(t *testing.T, lang Lang, cases []flowCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := flowsOf(t, lang, c.code)
			if !has(got, c.want) {
				t.Errorf("flows %q; want one starting %q", got, c.want)
			}
		})
	}
}
