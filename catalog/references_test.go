package catalog

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestReferences(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name string
		fsys fstest.MapFS
		want []string
	}{
		{"none", fstest.MapFS{"SKILL.md": file("x")}, nil},
		{"a file, not a folder", fstest.MapFS{"references": file("x")}, nil},
		{"path order", fstest.MapFS{
			"references/b.md":     file("b"),
			"references/a/z.md":   file("az"),
			"references/a-b.md":   file("ab"),
			"references/empty.md": file(""),
		}, []string{"references/a-b.md=ab", "references/a/z.md=az", "references/b.md=b", "references/empty.md="}},
		{"binary and invalid UTF-8 left out", fstest.MapFS{
			"references/nul.bin": file("a\x00b"),
			"references/bad.txt": file("\xff\xfe"),
			"references/ok.txt":  file("héllo"),
		}, []string{"references/ok.txt=héllo"}},
		{"links never followed", fstest.MapFS{
			"references/link.md": &fstest.MapFile{Data: []byte("../../secret"), Mode: fs.ModeSymlink},
			"references/ok.md":   file("ok"),
		}, []string{"references/ok.md=ok"}},
		{"too large left out", fstest.MapFS{
			"references/big.md": &fstest.MapFile{Data: make([]byte, MaxSkillFileSize+1)},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs, err := References(tt.fsys)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.Path+"="+string(r.Text))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("References (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendReferences(t *testing.T) {
	refs := []Reference{{Path: "references/a.md", Text: []byte("A")}, {Path: "references/b.md", Text: []byte("B\n")}}
	tests := []struct {
		name, content string
		refs          []Reference
		want          string
	}{
		{"no references", "body", nil, "body"},
		{"ends with a newline", "body\n", refs, "body\n\nReference: references/a.md\n\nA\n\nReference: references/b.md\n\nB\n"},
		{"no final newline", "body", refs[:1], "body\n\nReference: references/a.md\n\nA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(AppendReferences([]byte(tt.content), tt.refs))); diff != "" {
				t.Errorf("AppendReferences (-want +got):\n%s", diff)
			}
		})
	}
}
