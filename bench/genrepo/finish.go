package genrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// updateRefs moves main to the generated tip and creates the candidate and archive refs.
func (gen *generator) updateRefs() error {
	if err := gen.g.Updates().Update(mainRef, gen.tip, gen.base, "genrepo: generated history"); err != nil {
		return err
	}
	for _, ref := range gen.refs {
		if err := gen.g.Updates().Update(ref.Name, ref.Hash, gitstore.ZeroHash, "genrepo: candidate"); err != nil {
			return err
		}
	}
	return nil
}

// finish packs the repository, checks out the result and writes the plain copy.
func finish(dir string, bare bool, gen *generator) error {
	start := time.Now()
	if err := git(dir, "gc", "--quiet", "--prune=now"); err != nil {
		return err
	}
	gen.logf("packed with git gc in %s", time.Since(start).Round(time.Millisecond))
	// skillgit keeps git's commit-graph with its changed-path filters as it commits; the
	// generated history gets them at once.
	if err := git(dir, "commit-graph", "write", "--reachable", "--changed-paths"); err != nil {
		return err
	}
	if gen.opts.Checkout && !bare {
		if err := git(dir, "reset", "--hard", "--quiet"); err != nil {
			return err
		}
	}
	if gen.opts.TreeDir == "" {
		return nil
	}
	return writeCopy(gen.opts.TreeDir, gen.opts.Seed, gen.live)
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// checkEmpty makes sure that dir is missing or empty, so that nothing of the user's is
// overwritten.
func checkEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s: folder is not empty; remove it or pick another folder for the plain copy", dir)
	}
	return nil
}

// writeCopy writes the current version of every skill under dir.
func writeCopy(dir string, seed uint64, skills []*skill) error {
	if err := checkEmpty(dir); err != nil {
		return err
	}
	for _, s := range skills {
		if err := writeSkillCopy(dir, seed, s); err != nil {
			return err
		}
	}
	return nil
}

func writeSkillCopy(dir string, seed uint64, s *skill) error {
	for name, data := range s.files(seed, s.current()) {
		p := filepath.Join(dir, filepath.FromSlash(path.Join(s.dir, name)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			return err
		}
	}
	return nil
}
