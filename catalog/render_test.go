package catalog

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or rewrites that file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func TestWritePrompt(t *testing.T) {
	tests := []struct {
		golden  string
		entries []PromptEntry
	}{
		{golden: "prompt-empty.golden"},
		{golden: "prompt.golden", entries: []PromptEntry{
			{Name: "pdf-tools", Description: "Fill PDF forms. Use when asked to edit a PDF.", Location: "skills/pdf-tools/SKILL.md"},
			{Name: "x<script>&", Description: `Says "hi" & <b>bold</b> 'quoted'` + "\nsecond line", Location: "/home/ada/skills/a&b/SKILL.md"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePrompt(&buf, tt.entries); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, buf.Bytes())
		})
	}
}

func TestWriteRead(t *testing.T) {
	tests := []struct {
		golden  string
		content string
	}{
		{golden: "read-newline.golden", content: "---\nname: pdf-tools\ndescription: d\n---\n# PDF <tools> & more\n"},
		{golden: "read-no-newline.golden", content: "---\nname: pdf-tools\ndescription: d\n---\n# PDF <tools> & more"},
		{golden: "read-empty.golden", content: ""},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteRead(&buf, "pdf-tools", "/repo/skills/pdf-tools", []byte(tt.content)); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, buf.Bytes())
		})
	}
}

// brokenWriter fails every write.
type brokenWriter struct{}

var errBroken = errors.New("pipe closed")

func (brokenWriter) Write([]byte) (int, error) { return 0, errBroken }

func TestWriteErrors(t *testing.T) {
	if err := WritePrompt(brokenWriter{}, []PromptEntry{{Name: "a"}}); !errors.Is(err, errBroken) {
		t.Errorf("WritePrompt error = %v, want %v", err, errBroken)
	}
	if err := WriteRead(brokenWriter{}, "a", "b", []byte("c")); !errors.Is(err, errBroken) {
		t.Errorf("WriteRead error = %v, want %v", err, errBroken)
	}
}
