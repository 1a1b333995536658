// Command gen generates a large skill repository for benchmarks.
//
//	go run ./bench/gen -skills 10000 -commits 3000 -out DIR [-tree DIR] [-skillgit BIN]
//
// It creates DIR with `skillgit init` (the binary given by -skillgit, or the same code run
// in-process), adds generated skills and history on top, packs the repository with git gc and,
// with -tree, writes a plain copy of the final skills folder.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"time"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

type options struct {
	gen      genrepo.Options
	out, bin string
}

func parse(args []string, stderr io.Writer) (*options, error) {
	var o options
	fl := flag.NewFlagSet("gen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.IntVar(&o.gen.Skills, "skills", 10000, "number of skills on the publish branch at the end")
	fl.IntVar(&o.gen.Commits, "commits", 3000, "number of commits to add")
	fl.Uint64Var(&o.gen.Seed, "seed", 1, "seed; equal seeds give equal content")
	fl.StringVar(&o.out, "out", "", "folder to create the repository in (must not exist)")
	fl.StringVar(&o.gen.TreeDir, "tree", "", "folder to write a plain copy of the skills into (must not exist)")
	fl.StringVar(&o.bin, "skillgit", "", "skillgit binary to run `init` with; empty runs it in-process")
	fl.BoolVar(&o.gen.Checkout, "checkout", true, "check the result out in the working tree")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	if o.out == "" || fl.NArg() > 0 {
		return nil, errors.New("usage: gen -out DIR [-skills N] [-commits N] [-seed N] [-tree DIR] [-skillgit BIN]")
	}
	return &o, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if _, err := os.Stat(o.out); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: already exists; remove it or choose another -out folder", o.out)
	}
	start := time.Now()
	if err := initRepo(o.out, o.bin); err != nil {
		return err
	}
	o.gen.Log = stderr
	res, err := genrepo.Generate(o.out, o.gen)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d skills (%d with a script, %d in categories), %d commits, %d open and %d archived candidates, main %s, in %s\n",
		o.out, res.Skills, res.Scripts, res.Nested, res.Commits, res.Open, res.Archived, res.Tip, time.Since(start).Round(time.Millisecond))
	return nil
}

// initRepo creates the repository the way a user would, with `skillgit init`.
func initRepo(dir, bin string) error {
	if bin == "" {
		_, err := initrepo.Init(initrepo.Options{Dir: dir})
		return err
	}
	out, err := exec.Command(bin, "init", dir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s init %s: %w: %s", bin, dir, err, out)
	}
	return nil
}
