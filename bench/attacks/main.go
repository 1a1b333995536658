// Command attacks writes the audit's malicious fixture set into one
// folder, so that the calibration harness can read it like any other
// collection: the families kept in audit/testdata/attacks, and the
// family of payloads behind unaudited content, which is generated
// because it is megabytes large.
//
//	go run ./bench/attacks -out DIR
//	go run ./bench/calibrate -list medium DIR
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/internal/attackgen"
)

func main() {
	out := flag.String("out", "", "folder to write the fixture set into")
	from := flag.String("from", filepath.Join("audit", "testdata", "attacks"), "folder of the committed fixtures")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: attacks -out DIR [-from DIR]")
		os.Exit(2)
	}
	if err := run(*from, *out); err != nil {
		fmt.Fprintln(os.Stderr, "attacks:", err)
		os.Exit(1)
	}
}

func run(from, out string) error {
	if err := os.CopyFS(out, os.DirFS(from)); err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	dirs, err := attackgen.Write(out)
	if err != nil {
		return err
	}
	n := 0
	_ = fs.WalkDir(os.DirFS(out), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "SKILL.md" {
			n++
		}
		return nil
	})
	fmt.Printf("%d skills in %s (%d generated)\n", n, out, len(dirs))
	return nil
}
