package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"
	"time"
)

// untrackedTimeout bounds one run of git ls-files.
const untrackedTimeout = 30 * time.Second

// Untracked returns the paths among paths (folders relative to dir, with slashes) that
// hold files git would list as untracked in the work tree around dir: neither tracked nor
// ignored, by git's own rules (.gitignore files, .git/info/exclude, core.excludesFile). It
// runs git ls-files, so it fails when git is not on PATH or dir is in no work tree.
func Untracked(dir string, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), untrackedTimeout)
	defer cancel()
	args := append([]string{"-C", dir, "ls-files", "-z", "--others", "--exclude-standard", "--directory", "--no-empty-directory", "--"}, paths...)
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Env = append(IsolatedEnv(os.Environ()), "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: git ls-files: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	listed := strings.Split(strings.TrimSuffix(stdout.String(), "\x00"), "\x00")
	var out []string
	for _, p := range paths {
		for _, l := range listed {
			if l != "" && (within(l, p) || within(p, strings.TrimSuffix(l, "/"))) {
				out = append(out, p)
				break
			}
		}
	}
	return out, nil
}

// within reports whether slash path p is folder dir or lies below it.
func within(p, dir string) bool {
	p, dir = path.Clean(p), path.Clean(dir)
	return p == dir || strings.HasPrefix(p, dir+"/")
}
