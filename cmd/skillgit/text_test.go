package main

import (
	"strings"
	"testing"
)

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

// TestOneLineAsFolded checks that the shortcut for plain text cuts every line as folding it
// does, around the cut and with what folding changes before, at and after it.
func TestOneLineAsFolded(t *testing.T) {
	bases := []string{
		"Annotate log files for a11y projects: turns outdated log files into a short change.",
		"one two", " lead", "trail ", "double  space", "tab\there", "new\nline", "caf\u00e9 au lait",
		"bidi \u202e here", "esc \x1b[2J", "bad \xff byte", "cr\r\nlf", "",
	}
	var inputs []string
	for _, a := range bases {
		for _, b := range bases {
			inputs = append(inputs, a+b, a+" "+b, a+"  "+b, strings.Repeat("x", 5)+a+b)
		}
	}
	for _, s := range inputs {
		for n := 1; n <= len(s)+2; n++ {
			if got, want := oneLine(s, n), foldLine(s, n); got != want {
				t.Fatalf("oneLine(%q, %d) = %q, folding gives %q", s, n, got, want)
			}
		}
	}
}

// TestFoldLineCutsRunes checks that foldLine cuts between runes as counting them does, for
// text with runes of one to four bytes, invalid bytes and hidden characters around the cut.
func TestFoldLineCutsRunes(t *testing.T) {
	byRunes := func(s string, n int) string {
		r := []rune(strings.Join(strings.Fields(sanitize(s)), " "))
		if len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return string(r)
	}
	for _, s := range []string{
		"café crème brûlée", "日本語のテキスト とても長い", "emoji 🎉🎉 party 🎉", "bad \xff\xfe bytes here",
		"bidi \u202e hidden \U000E0041 tag", "mixed a\u00e9\u65e5\U0001F389 \t\n end",
	} {
		for n := 1; n <= len(s)+2; n++ {
			if got, want := foldLine(s, n), byRunes(s, n); got != want {
				t.Fatalf("foldLine(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}
