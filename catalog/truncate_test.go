package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name, text string
		limit      int
		want       string
		cut        bool
	}{
		{"no limit", "abc\ndef", 0, "abc\ndef", false},
		{"negative is no limit", "abc", -1, "abc", false},
		{"fits", "abc", 3, "abc", false},
		{"hard cut", "abcdefghij", 4, "abcd", true},
		{"runes, not bytes", "äöüßéèêë", 3, "äöü", true},
		{"line end in the last fifth", "0123456789\nabcdefghij", 12, "0123456789\n", true},
		{"line end too early", "01\n3456789abcdefghij", 10, "01\n3456789", true},
		{"line end exactly at the limit", "0123\n56789", 5, "0123\n", true},
		{"multi-byte line", "ääääääää\nöööö", 10, "ääääääää\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, cut := Truncate(tt.text, tt.limit)
			if got != tt.want || cut != tt.cut || total != utf8.RuneCountInString(tt.text) {
				t.Errorf("Truncate(%q, %d) = %q, %d, %v; want %q, %d, %v", tt.text, tt.limit, got, total, cut,
					tt.want, utf8.RuneCountInString(tt.text), tt.cut)
			}
			if tt.limit > 0 && utf8.RuneCountInString(got) > tt.limit {
				t.Errorf("kept %d runes, over the limit %d", utf8.RuneCountInString(got), tt.limit)
			}
		})
	}
}

func TestTruncateSkill(t *testing.T) {
	content := []byte("---\nname: big\n---\n" + strings.Repeat("line of text\n", 20))
	out, total, cut := TruncateSkill("big", content, 50)
	if !cut || total != utf8.RuneCount(content) {
		t.Fatalf("cut = %v, total = %d", cut, total)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	notice := lines[len(lines)-1]
	kept := strings.TrimSuffix(string(out), notice+"\n")
	want := TruncationNotice("big", utf8.RuneCountInString(kept), total)
	if notice != want || !strings.HasSuffix(kept, "\n") || !strings.HasPrefix(string(content), kept) {
		t.Errorf("out = %q", out)
	}
	if !strings.Contains(notice, `[truncated: showing `) || !strings.Contains(notice, `run "skillgit read big" for the whole skill]`) {
		t.Errorf("notice = %q", notice)
	}

	same, _, cut := TruncateSkill("big", content, 0)
	if cut || string(same) != string(content) {
		t.Errorf("no limit changed the content")
	}
	hard, _, _ := TruncateSkill("x", []byte("abcdefghij"), 4)
	if string(hard) != "abcd\n"+TruncationNotice("x", 4, 10)+"\n" {
		t.Errorf("hard cut = %q", hard)
	}
}
