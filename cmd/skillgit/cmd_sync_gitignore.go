package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle/agentsync"
)

const syncGitignoreHelp = `
In an application project, a sync under the lock that leaves agent skills folders git
would list as untracked (neither tracked nor ignored, by git's own rules) says so on
stderr with the .gitignore lines that ignore them, such as /.claude/skills/ and
/.agents/skills/: a fresh clone installs them from the lock, and their manifests record
stamps of this machine. Only the skills folders are named, never .claude or .agents
around them, which hold other settings. --gitignore adds those lines to the project's
.gitignore (written aside and renamed over, its other lines kept; a line already there
is not added again); it goes with a sync under the lock, not with --dry-run or --check.
With --json: "unignored": {"gitignore": FILE, "dirs": [DIR], "lines": [LINE], "added": B}.`

// unignoredJSON is the "unignored" field of sync --json.
type unignoredJSON struct {
	Gitignore string   `json:"gitignore"`
	Dirs      []string `json:"dirs"`
	Lines     []string `json:"lines"`
	Added     bool     `json:"added"`
}

// addGitignoreFlag declares --gitignore on sync.
func addGitignoreFlag(c *cobra.Command, on *bool) {
	c.Long += "\n" + syncGitignoreHelp
	c.Flags().BoolVar(on, "gitignore", false, "add the .gitignore lines that ignore the agent skills folders the sync wrote")
	for _, other := range []string{"status", "propose-edits", "watch", "check", "dry-run"} {
		exclusiveFlags(c, "--gitignore goes with a sync under the lock that writes the agent folders", "gitignore", other)
	}
}

func toUnignoredJSON(u *agentsync.Unignored) *unignoredJSON {
	if u == nil {
		return nil
	}
	return &unignoredJSON{Gitignore: u.Gitignore, Dirs: u.Dirs, Lines: u.Lines, Added: u.Added}
}

// printGitignored prints the lines --gitignore added.
func printGitignored(w io.Writer, u *agentsync.Unignored) {
	if u == nil || !u.Added {
		return
	}
	for _, l := range u.Lines {
		fmt.Fprintf(w, "ignore %s in %s\n", sanitize(l), sanitize(u.Gitignore))
	}
}

// hintUnignored says on stderr which agent folders git does not ignore, and how to ignore them.
func (o *syncOptions) hintUnignored(u *agentsync.Unignored) {
	a := o.app
	if u == nil || u.Added {
		return
	}
	fmt.Fprintf(a.Err, "hint: git does not ignore %s; a fresh clone installs them from %s with `skillgit sync`, so ignore them rather than commit them: add to %s\n",
		sanitize(strings.Join(u.Dirs, ", ")), agentsync.LockFileName, sanitize(u.Gitignore))
	for _, l := range u.Lines {
		fmt.Fprintf(a.Err, "hint:   %s\n", sanitize(l))
	}
	fmt.Fprintln(a.Err, "hint: or run `skillgit sync --gitignore`, which adds them")
}
