package main

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"escape sequences spelled out", "a\x1b]0;pwned\x07\x1b[2Jb", `a\x1b]0;pwned\x07\x1b[2Jb`},
		{"lines kept", "one\r\ntwo\n\tthree", "one\r\ntwo\n\tthree"},
		{"lone carriage return", "shown\rhidden", `shown\x0dhidden`},
		{"c1 control", "a\u009bb", `a\u009bb`},
		{"bidi and tags replaced", "x\u202Ey\U000E0041", "x\uFFFDy\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sanitize(tt.in); got != tt.want {
				t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestOneLineEscapes(t *testing.T) {
	if got, want := oneLine("Dims\x1b[8m the\r\nlights", 80), `Dims\x1b[8m the lights`; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}
