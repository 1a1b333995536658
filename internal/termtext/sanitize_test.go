package termtext

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct{ name, in, sanitized, line string }{
		{"plain", "café — 日本", "café — 日本", "café — 日本"},
		{"escape", "a\x1b[31mb", `a\x1b[31mb`, `a\x1b[31mb`},
		{"lines", "one\ntwo\tthree\r\n", "one\ntwo\tthree\r\n", `one\x0atwo\x09three\x0d\x0a`},
		{"lone cr", "shown\rhidden", `shown\x0dhidden`, `shown\x0dhidden`},
		{"bidi override", "abc\u202edcba", "abc\uFFFDdcba", "abc\uFFFDdcba"},
		{"bidi isolate and marks", "\u2066x\u2069\u200e\u200f\u061c", "\uFFFDx\uFFFD\uFFFD\uFFFD\uFFFD", "\uFFFDx\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"tag characters", "ok\U000E0041\U000E007F", "ok\uFFFD\uFFFD", "ok\uFFFD\uFFFD"},
		{"c1 and raw byte", "\u009b2J\x9b", `\u009b2J\x9b`, `\u009b2J\x9b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.sanitized {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.sanitized)
			}
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
			}
		})
	}
}
