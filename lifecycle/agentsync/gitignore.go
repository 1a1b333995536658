package agentsync

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/atomicfile"
)

// maxGitignoreSize bounds how much of a project's .gitignore is read.
const maxGitignoreSize = 1 << 20

// gitignoreComment heads the lines AppendGitignore adds.
const gitignoreComment = "# Skills installed by `skillgit sync`: a fresh clone installs them from " + LockFileName + "."

// Unignored is what a sync of an application project's agent folders left that git would
// list as untracked: the folders, relative to the project, and the lines of the project's
// .gitignore that ignore them. Only the skills folders are named, never the agent's folder
// around one (.claude holds the user's own settings): they hold what the lock pins, and a
// manifest whose stamps are of this machine.
type Unignored struct {
	// Gitignore is the project's .gitignore.
	Gitignore string
	// Dirs are the folders, with slashes; Lines the .gitignore lines, such as /.claude/skills/.
	Dirs, Lines []string
	// Added says the lines were added to Gitignore (Request.Gitignore).
	Added bool
}

// checkIgnored finds the targets of rep inside the project that git does not ignore and,
// with req.Gitignore, adds the lines that ignore them to the project's .gitignore. It is
// silent where git cannot tell (no git, no work tree): nothing is then named.
func (r *repo) checkIgnored(targets []Target, req Request, rep *Report) error {
	var dirs []string
	for _, t := range targets {
		rel, err := filepath.Rel(r.project, t.Dir)
		if err == nil && filepath.IsLocal(rel) && !strings.ContainsAny(rel, "\n\r") {
			dirs = append(dirs, filepath.ToSlash(rel))
		}
	}
	found, err := gitstore.Untracked(r.project, dirs)
	if err != nil || len(found) == 0 {
		return nil
	}
	u := &Unignored{Gitignore: filepath.Join(r.project, ".gitignore"), Dirs: found}
	for _, d := range found {
		u.Lines = append(u.Lines, gitignoreLine(d))
	}
	rep.Unignored = u
	if !req.Gitignore {
		return nil
	}
	if err := AppendGitignore(u.Gitignore, u.Lines); err != nil {
		return err
	}
	u.Added = true
	return nil
}

// gitignoreLine is the .gitignore line, anchored at the file's folder, that ignores folder
// dir (a slash path) and nothing else: the characters that patterns treat apart are escaped.
func gitignoreLine(dir string) string {
	var b strings.Builder
	b.WriteByte('/')
	for _, c := range dir {
		if strings.ContainsRune(`\*?[!# `, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('/')
	return b.String()
}

// AppendGitignore adds to the .gitignore file each of lines it lacks, after a comment
// saying why, keeping every other byte and the file's mode; a missing file is created. It
// writes atomically (aside, then renamed over) and writes nothing when every line is there.
// A file that is a symbolic link, not a regular file or larger than 1 MiB is refused.
func AppendGitignore(file string, lines []string) error {
	doc, mode, err := readKept(file, maxGitignoreSize, "a .gitignore")
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(doc), "\n") {
		have[strings.TrimRight(l, " \t\r")] = true
	}
	var add bytes.Buffer
	for _, l := range lines {
		if !have[l] {
			have[l] = true
			add.WriteString(l + "\n")
		}
	}
	if add.Len() == 0 {
		return nil
	}
	out := bytes.Clone(doc)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	if !have[gitignoreComment] {
		out = append(out, gitignoreComment+"\n"...)
	}
	out = append(out, add.Bytes()...)
	if err := atomicfile.Write(file, out, atomicfile.Options{Perm: mode, Sync: true}); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
