package agentsync

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ProjectProblem is one thing `skillgit doctor` finds wrong in an application project
// itself, which it never repairs.
type ProjectProblem struct {
	// Path is the file or folder concerned, absolute.
	Path string
	// Installed is set for a difference between a target and the lock, clear for a problem
	// of the sync file or the lock.
	Installed bool
	// Detail says what is wrong.
	Detail string
	// Fix says what the user can do.
	Fix string
}

// ProjectHealth is what CheckProject found.
type ProjectHealth struct {
	// Problems are in the order found: the sync file, the lock, then the targets.
	Problems []ProjectProblem
	// Targets are the lock's target folders, absolute; none without a readable lock.
	Targets []string
}

// CheckProject checks the application project whose top folder is dir, without its skill
// repository: that its sync file reads, that its lock reads and names the sync file's
// repository, and that every target of the lock holds what the lock pins, as `sync
// --verify` does. Leftovers of interrupted syncs are not reported: they are the target
// check's (see targetdir.Check), which can remove them.
func CheckProject(dir string) (*ProjectHealth, error) {
	h := &ProjectHealth{}
	syncPath := filepath.Join(dir, SyncFileName)
	sf, err := ReadSyncFile(syncPath)
	if err != nil {
		h.add(syncPath, err.Error(), "doctor never rewrites it: correct it as the message says")
	}
	file := filepath.Join(dir, LockFileName)
	lock, found, err := ReadLock(file)
	switch {
	case err != nil:
		h.add(file, err.Error(), "doctor never rewrites it")
		return h, nil
	case !found:
		h.add(file, "missing: what the project installs is not pinned", "run `skillgit sync` in the project and commit "+LockFileName)
		return h, nil
	case sf != nil && !SameRepository(lock.Repository, sf.Repository):
		h.add(file, fmt.Sprintf("the lock pins the skill repository %s, the sync file names %s", lock.Repository, sf.Repository),
			"run `skillgit sync --update` to move the lock, and commit it")
	}
	for _, t := range lock.Targets {
		h.Targets = append(h.Targets, filepath.Join(dir, filepath.FromSlash(t.Dir)))
	}
	v, err := verifyLock(dir, file, lock, 0)
	if err != nil {
		return nil, err
	}
	for _, p := range v.Problems {
		if p.Kind == VerifyLeftover {
			continue
		}
		h.Problems = append(h.Problems, ProjectProblem{Path: filepath.Join(dir, filepath.FromSlash(p.Path)), Installed: true,
			Detail: describeProblem(p), Fix: problemFix(p.Kind)})
	}
	return h, nil
}

func (h *ProjectHealth) add(path, detail, fix string) {
	h.Problems = append(h.Problems, ProjectProblem{Path: path, Detail: detail, Fix: fix})
}

// describeProblem says in one line how a target differs from the lock.
func describeProblem(p VerifyProblem) string {
	s := string(p.Kind)
	switch {
	case p.Got != "":
		s += fmt.Sprintf(": tree %s, locked %s", short(p.Got), short(p.Want))
	case p.Kind == VerifyMissing:
		s += ": not installed"
	}
	if p.Detail != "" {
		s += ": " + p.Detail
	}
	if len(p.Files) > 0 {
		var fs []string
		for _, f := range p.Files {
			fs = append(fs, f.Path+" "+f.Change)
		}
		s += " (" + strings.Join(fs, ", ") + ")"
	}
	return s
}

// problemFix says what repairs a difference of kind k from the lock.
func problemFix(k VerifyKind) string {
	switch k {
	case VerifyForeign:
		return "not installed by skillgit: remove it by hand, or select the skill in " + SyncFileName + " and run `skillgit sync --update`"
	case VerifyMissing, VerifyTargetMissing:
		return "`skillgit sync` installs it"
	case VerifyUnreadable:
		return "make it readable, or remove it, then run `skillgit sync`"
	}
	return "`skillgit sync` installs the locked version (with --force over an edit)"
}

func short(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}
