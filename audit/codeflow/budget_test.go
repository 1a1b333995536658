//go:build cgo

package codeflow

import (
	"strings"
	"testing"
)

// TestParseBudget checks that code built to stall the parser's error
// recovery is cut off and reported as unread, instead of taking the
// minutes it would take to parse, and that ordinary code of the same size
// is read whole.
func TestParseBudget(t *testing.T) {
	hostile := []struct {
		lang Lang
		code string
	}{
		{JavaScript, strings.Repeat(`"""`, 60000)},
		{Python, strings.Repeat("\\\n", 80000)},
		{Python, strings.Repeat("<a>", 60000)},
	}
	for _, h := range hostile {
		flows, err := Analyze([]Unit{{Lang: h.lang, Code: []byte(h.code)}})
		if err != nil {
			t.Fatal(err)
		}
		if len(flows) != 1 || flows[0].Kind != Unread {
			t.Errorf("%q…: flows %+v; want one Unread", h.code[:9], flows)
		}
	}
	plain := strings.Repeat("import os\nx = [1, 2, 3]\nprint(x, os.getcwd())\n", 8000)
	flows, err := Analyze([]Unit{{Lang: Python, Code: []byte(plain)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flows {
		if f.Kind == Unread {
			t.Errorf("%d bytes of ordinary code were not read", len(plain))
		}
	}
}
