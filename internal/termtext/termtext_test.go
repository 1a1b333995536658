package termtext

import "testing"

func TestEscape(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "# Title\n\tindented\n", "# Title\n\tindented\n"},
		{"window title", "a\x1b]0;pwned\x07b", `a\x1b]0;pwned\x07b`},
		{"clear screen", "\x1b[2Jtext", `\x1b[2Jtext`},
		{"crlf kept", "one\r\ntwo\r\n", "one\r\ntwo\r\n"},
		{"lone cr", "shown\rhidden", `shown\x0dhidden`},
		{"cr at end", "end\r", `end\x0d`},
		{"del and nul", "a\x7fb\x00", `a\x7fb\x00`},
		{"form feed", "page\fnext", `page\x0cnext`},
		{"c1 csi", "a\u009b2Jb", `a\u009b2Jb`},
		{"c1 osc", "\u009d0;x\u009c", `\u009d0;x\u009c`},
		{"raw 8-bit csi byte", "a\x9b2J", `a\x9b2J`},
		{"non-ascii kept", "café — 日本 ❤️ \u00a0", "café — 日本 ❤️ \u00a0"},
		{"invalid utf-8 kept", "a\xffb", "a\xffb"},
		{"bom kept", "\ufeffhello", "\ufeffhello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscapeLeavesNoControl(t *testing.T) {
	var all []byte
	for c := 0; c < 0x100; c++ {
		all = append(all, byte(c))
	}
	s := string(all) + string([]rune{0x80, 0x85, 0x9b, 0x9f})
	for i, r := range Escape(s) {
		if Control(r) {
			t.Fatalf("Escape left control %U at %d", r, i)
		}
	}
	for i, c := range []byte(Escape(s)) {
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			t.Fatalf("Escape left byte %#x at %d", c, i)
		}
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("a\x1b[2J\r\n\u009b")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Escape(s) {
			if Control(r) && r != '\r' {
				t.Fatalf("Escape(%q) left %U", s, r)
			}
		}
	})
}
