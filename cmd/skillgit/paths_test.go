package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestPathResolvesLikeGitUnderC(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "x", "scratch")
	tests := []struct{ repo, p, want string }{
		{".", abs, abs},
		{"repo", abs, abs},
		{".", "drafts", "drafts"},
		{"repo", "drafts", filepath.Join("repo", "drafts")},
		{"repo", "../other", "other"},
	}
	for _, tt := range tests {
		a := &app{repo: tt.repo}
		if got := a.path(tt.p); got != tt.want {
			t.Errorf("-C %s: path(%q) = %q, want %q", tt.repo, tt.p, got, tt.want)
		}
	}
}

func TestNeedPathOutsideGit(t *testing.T) {
	dir := t.TempDir()
	err := (&app{repo: dir}).needPathOutsideGit("audit")
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "give a PATH") || !strings.Contains(err.Error(), dir) {
		t.Errorf("outside git: err = %v, want a usage error that asks for a PATH", err)
	}
	err = (&app{repo: filepath.Join(dir, "missing")}).needPathOutsideGit("audit")
	if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("-C a missing folder: err = %v, want an error that says it is missing", err)
	}
}
