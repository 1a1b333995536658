package audit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestControlHits(t *testing.T) {
	type found struct{ ID, Content, Effect string }
	tests := []struct {
		name, text string
		want       []found
	}{
		{"window title and clear screen", "a\x1b]0;pwned\x07b\x1b[2Jc", []found{
			{"SG-HID-020", "\x1b]0;pwned\x07", "sets the terminal's window title"},
			{"SG-HID-020", "\x1b[2J", "erases the screen or a line"}}},
		{"title ended by ESC backslash", "\x1b]2;x\x1b\\rest", []found{{"SG-HID-020", "\x1b]2;x\x1b\\", "sets the terminal's window title"}}},
		{"hidden text", "\x1b[0;8mgone", []found{{"SG-HID-020", "\x1b[0;8m", "hides the text that follows"}}},
		{"cursor", "\x1b[10;1H", []found{{"SG-HID-020", "\x1b[10;1H", "moves the cursor"}}},
		{"c1 csi", "x\u009b2Jy", []found{{"SG-HID-020", "\u009b2J", "erases the screen or a line"}}},
		{"lone esc at the end", "x\x1b", []found{{"SG-HID-020", "\x1b", ""}}},
		{"two-byte escape", "\x1bcreset", []found{{"SG-HID-020", "\x1bc", ""}}},
		{"unterminated title stops at the line end", "\x1b]0;abc\nnext", []found{{"SG-HID-020", "\x1b]0;abc", "sets the terminal's window title"}}},
		{"lone carriage return", "shown\rover", []found{{"SG-HID-021", "\r", ""}}},
		{"backspace and DEL", "a\bb\x7f", []found{{"SG-HID-021", "\b", ""}, {"SG-HID-021", "\x7f", ""}}},
		{"other c1", "a\u0085b", []found{{"SG-HID-021", "\u0085", ""}}},
		{"benign", "\ufeffline\r\n\tcol\fpage\nend\r\n", nil},
		{"non-ascii text", "café — ünïcödé ✓ 日本", nil},
		{"printed escapes are text", `printf '\033[2J' "\x1b]0;t\x07"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := &unit{file: "SKILL.md", text: []byte(tt.text), orig: []byte(tt.text)}
			var got []found
			for _, h := range controlHits(u) {
				_, effect, _ := strings.Cut(h.Message, " This one ")
				got = append(got, found{h.RuleID, tt.text[h.start:h.end], strings.TrimSuffix(effect, ".")})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("controlHits(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestControlHitsBounded(t *testing.T) {
	text := strings.Repeat("\x1b[2J", 100) + strings.Repeat("\x1b]0;"+strings.Repeat("x", 1000), 2) + strings.Repeat("\b", 100)
	u := &unit{file: "SKILL.md", text: []byte(text), orig: []byte(text)}
	counts := map[string]int{}
	for _, h := range controlHits(u) {
		counts[h.RuleID]++
		if h.end-h.start > maxSequence+2 {
			t.Errorf("%s covers %d bytes", h.RuleID, h.end-h.start)
		}
	}
	if counts["SG-HID-020"] != maxPerRule || counts["SG-HID-021"] != maxPerRule {
		t.Errorf("counts %v, want %d of each", counts, maxPerRule)
	}
}

// TestControlSnippet checks that a finding shows its escape sequence
// spelled out, not as bytes that would act on the reader's terminal.
func TestControlSnippet(t *testing.T) {
	rep := scanExample(t, front+"Title \x1b]0;pwned\x07 here.", Options{})
	for _, f := range rep.Findings {
		if f.RuleID == "SG-HID-020" {
			if want := `\x1b]0;pwned\x07`; f.Snippet != want {
				t.Errorf("snippet %q, want %q", f.Snippet, want)
			}
			return
		}
	}
	t.Fatalf("no SG-HID-020 finding:\n%s", dump(rep))
}
