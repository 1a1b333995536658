// Package genrepo generates large, realistic skill repositories for benchmarks and tests.
//
// A generated repository looks like one a team has used for a while: a pack import, then
// thousands of lifecycle commits (propose, revise, approve, reject, publish merges, rollbacks,
// deletions) and plain commits made with git, every one changing one or a few skills. Objects
// are written directly through gitstore, never through a working tree or the git command line,
// and the result is packed with `git gc` like a repository that git maintains. The same seed
// always gives the same skills, messages and dates.
package genrepo

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// Options says what to generate.
type Options struct {
	// Skills is how many skills the publish branch holds at the end.
	Skills int
	// Commits is how many commits to add on top of the repository, on the publish branch and
	// on candidate branches together.
	Commits int
	// Seed selects the content; equal seeds give equal skills, messages and dates.
	Seed uint64
	// SkillsDir is the skills folder of the repository; "skills" when empty.
	SkillsDir string
	// TreeDir, when set, receives a plain copy of the final skills folder. It must be missing
	// or empty.
	TreeDir string
	// Checkout brings the index and the working tree of a non-bare repository to the result.
	Checkout bool
	// Log receives progress lines; nil discards them.
	Log io.Writer
}

// Result describes what Generate wrote.
type Result struct {
	// Tip is the final commit of the publish branch.
	Tip gitstore.Hash
	// SkillsTree is the skills folder's tree at Tip.
	SkillsTree gitstore.Hash
	// Skills is the number of skills at Tip; Scripts and Nested count those with a script
	// and those inside a category folder.
	Skills, Scripts, Nested int
	// Commits is the number of commits written.
	Commits int
	// Open and Archived count the candidate branches left open and the rejected ones.
	Open, Archived int
}

// epoch is when generated histories start.
var epoch = time.Date(2024, 1, 8, 9, 0, 0, 0, time.UTC)

// Generate adds generated skills and history to the repository at dir, which `skillgit init`
// must have created: its publish branch main must exist and hold no skills yet. It moves main
// and creates the candidate and archive refs by compare-and-swap, then packs the repository
// with `git gc`, so the git command must be installed.
func Generate(dir string, opts Options) (*Result, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	g, err := gitstore.Open(dir)
	if err != nil {
		return nil, err
	}
	gen, err := newGenerator(g, opts)
	if err != nil {
		g.Close()
		return nil, err
	}
	res, err := gen.run()
	if err == nil {
		err = gen.updateRefs()
	}
	if cerr := g.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := finish(dir, g.Bare(), gen); err != nil {
		return nil, err
	}
	return res, nil
}

func (o *Options) check() error {
	if o.Skills < 1 || o.Commits < 1 {
		return errors.New("genrepo: Skills and Commits must be at least 1")
	}
	if o.SkillsDir == "" {
		o.SkillsDir = "skills"
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.TreeDir != "" {
		return checkEmpty(o.TreeDir)
	}
	return nil
}

func (gen *generator) logf(format string, args ...any) {
	fmt.Fprintf(gen.opts.Log, format+"\n", args...)
}
