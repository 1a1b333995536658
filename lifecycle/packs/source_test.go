package packs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSource(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "sub")
	for _, d := range []string{"sub", "vendor/skills", "sub/acme/tools"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ in, url, ref, path string }{
		{"https://example.com/skills.git", "https://example.com/skills.git", "", ""},
		{"file:///srv/packs/demo", "file:///srv/packs/demo", "", ""},
		{"git@github.com:acme/skills.git", "git@github.com:acme/skills.git", "", ""},
		{"anthropics/skills", "https://github.com/anthropics/skills", "", ""},
		{"https://github.com/anthropics/skills", "https://github.com/anthropics/skills", "", ""},
		{"https://github.com/anthropics/skills/tree/main/skills", "https://github.com/anthropics/skills", "main", "skills"},
		{"https://github.com/anthropics/skills/tree/main/skills/pdf/", "https://github.com/anthropics/skills", "main", "skills/pdf"},
		{"https://github.com/openai/skills/tree/v1", "https://github.com/openai/skills", "v1", ""},
		{"https://github.com/anthropics/skills/blob/main/skills/pdf/SKILL.md", "https://github.com/anthropics/skills", "main", "skills/pdf"},
		{"../vendor/skills", "vendor/skills", "", ""},
		{"./acme/tools", "sub/acme/tools", "", ""},
		{"..", ".", "", ""},
	} {
		got, err := ParseSource(c.in, dir, root)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(Source{URL: c.url, Ref: c.ref, Path: c.path}, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestParseSourceRefusals(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "acme/tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"-oProxyCommand=x", "starts with '-'"},
		{"a b", "spaces"},
		{"ftp://host/x", "use https://"},
		{"ext::sh -c x", "spaces"},
		{"ext::x", "remote helpers"},
		{"https://github.com/acme", "names no repository"},
		{"https://github.com/acme/skills/pulls", "not a repository or a folder"},
		{"https://github.com/acme/skills/blob/main/README.md", "points at a file"},
		{"https://github.com/acme/skills?tab=readme", "no query"},
		{root, "absolute path"},
		{"acme/tools", "both a folder here and a GitHub repository"},
		{"./missing", "existing folder"},
	} {
		_, err := ParseSource(c.in, root, root)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.in, err, c.want)
		}
	}
}
