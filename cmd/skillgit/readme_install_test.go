package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeInstall checks that the README says how to install skillgit before it shows how
// to try it, and that its commands name this module and this command's folder.
func TestReadmeInstall(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	install, try := strings.Index(readme, "\n## Install\n"), strings.Index(readme, "\n## Try it\n")
	if install < 0 || try < 0 || install > try {
		t.Fatalf("README: no \"## Install\" section before \"## Try it\" (at %d and %d)", install, try)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindStringSubmatch(readRepoFile(t, "go.mod"))
	if module == nil {
		t.Fatal("go.mod names no module")
	}
	section := readme[install:try]
	for _, want := range []string{
		"go install " + module[1] + "/cmd/skillgit@latest\n",
		"go install ./cmd/skillgit\n",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("README install section lacks %q", want)
		}
	}
	if _, err := os.Stat("../../cmd/skillgit/main.go"); err != nil {
		t.Errorf("go install ./cmd/skillgit names no command: %v", err)
	}
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
