package catalog

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"
)

// benchSkill returns a SKILL.md of about 2 KB for skill i.
func benchSkill(name string, i int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: Handles task number %d end to end. Use when the user asks for task %d or anything close to it.\nlicense: Apache-2.0\nmetadata:\n  version: \"1.%d\"\n  author: bench\n---\n\n# Skill %d\n\n", name, i, i, i%10, i)
	for b.Len() < 2000 {
		b.WriteString("- Step: run the tool, read its output, check the result, and report what changed.\n")
	}
	return []byte(b.String())
}

// writeBenchTree writes n skills under dir/skills in categories of 100,
// one in ten with a scripts folder, and returns the skills folder.
func writeBenchTree(tb testing.TB, dir string, n int) string {
	tb.Helper()
	root := filepath.Join(dir, "skills")
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		sd := filepath.Join(root, fmt.Sprintf("cat-%03d", i/100), name)
		mustWrite(tb, filepath.Join(sd, FileName), benchSkill(name, i))
		if i%10 == 0 {
			mustWrite(tb, filepath.Join(sd, "scripts", "run.sh"), []byte("#!/bin/sh\necho ok\n"))
		}
	}
	return root
}

func mustWrite(tb testing.TB, file string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkDiscover lists 10,000 skills of about 2 KB from a real folder,
// the way `skillgit validate --lenient` does. The floor sub-benchmark runs
// `find DIR -name SKILL.md | xargs head -5` on the same folder.
func BenchmarkDiscover(b *testing.B) {
	dir := b.TempDir()
	writeBenchTree(b, dir, 10000)
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	b.Run("lenient-frontmatter", func(b *testing.B) {
		benchDiscover(b, root.FS(), Options{Mode: Lenient, FrontmatterOnly: true})
	})
	b.Run("strict-whole", func(b *testing.B) {
		benchDiscover(b, root.FS(), Options{Mode: Strict})
	})
	// os.DirFS resolves a path in one system call where os.Root opens every
	// folder on the way; this shows what that confinement costs.
	b.Run("lenient-frontmatter-dirfs", func(b *testing.B) {
		benchDiscover(b, os.DirFS(dir), Options{Mode: Lenient, FrontmatterOnly: true})
	})
	// What the YAML library alone costs: every SKILL.md read whole with
	// os.ReadFile and its frontmatter decoded into a yaml.Node, two files at
	// a time, with no validation and no confinement. Discover cannot be
	// faster than this.
	b.Run("floor-yaml-only", func(b *testing.B) {
		files := benchFiles(b, filepath.Join(dir, "skills"))
		for b.Loop() {
			yamlOnly(b, files)
		}
	})
	if _, err := exec.LookPath("find"); err == nil {
		b.Run("floor-find-head", func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("sh", "-c", "find skills -name SKILL.md | xargs head -5 >/dev/null")
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("floor: %v\n%s", err, out)
				}
			}
		})
	}
}

func benchDiscover(b *testing.B, fsys fs.FS, opts Options) {
	b.ReportAllocs()
	for b.Loop() {
		res, err := Discover(fsys, "skills", opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Skills) != 10000 || len(res.Problems) != 0 {
			b.Fatalf("found %d skills and %d problems, want 10000 and 0", len(res.Skills), len(res.Problems))
		}
	}
}

// BenchmarkParse parses one SKILL.md of about 2 KB.
func BenchmarkParse(b *testing.B) {
	data := benchSkill("skill-00042", 42)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, problems := Parse("skills/skill-00042", data, Strict)
		if s == nil || len(problems) != 0 {
			b.Fatalf("problems: %v", problems)
		}
	}
}

// benchFiles lists the SKILL.md files under dir.
func benchFiles(b *testing.B, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == FileName {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) != 10000 {
		b.Fatalf("listing the bench tree: %d files, %v", len(files), err)
	}
	return files
}

// yamlOnly reads files and decodes their frontmatter, on two goroutines.
func yamlOnly(b *testing.B, files []string) {
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < len(files); i += 2 {
				data, err := os.ReadFile(files[i])
				if err != nil {
					b.Error(err)
					return
				}
				end := bytes.Index(data[4:], []byte("\n---"))
				var node yaml.Node
				if end < 0 || yaml.Unmarshal(data[4:4+end], &node) != nil {
					b.Errorf("%s: no frontmatter", files[i])
					return
				}
			}
		})
	}
	wg.Wait()
}
