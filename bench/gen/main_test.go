package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	home := t.TempDir()
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"} {
		t.Setenv(k, v)
	}
	work := t.TempDir()
	out, tree := filepath.Join(work, "repo"), filepath.Join(work, "tree")
	existing := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string // in stdout on success, in the error otherwise
		ok   bool
	}{
		{"generates", []string{"-skills", "30", "-commits", "40", "-out", out, "-tree", tree}, "30 skills", true},
		{"out exists", []string{"-out", existing}, "already exists", false},
		{"no out", []string{"-skills", "3"}, "usage", false},
		{"stray argument", []string{"-out", filepath.Join(work, "x"), "extra"}, "usage", false},
		{"bad flag", []string{"-skills", "many"}, "invalid value", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(tt.args, &stdout, &stderr)
			if tt.ok {
				if err != nil || !strings.Contains(stdout.String(), tt.want) {
					t.Fatalf("run = %v, stdout %q; want success mentioning %q", err, stdout.String(), tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	skills := 0
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "SKILL.md" {
			skills++
		}
		return err
	})
	if err != nil || skills != 30 {
		t.Errorf("plain copy holds %d SKILL.md files (%v), want 30", skills, err)
	}
}
