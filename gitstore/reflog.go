package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// reflogPolicy is what core.logAllRefUpdates asks for.
type reflogPolicy int

const (
	reflogNone   reflogPolicy = iota // log only refs that already have a log
	reflogNormal                     // also branches, remotes, notes and HEAD
	reflogAlways                     // every ref
)

// reflogPolicy reads core.logAllRefUpdates; unset means "true" in a
// repository with a working tree and "false" in a bare one, as in git.
func (r *Reflogs) reflogPolicy() reflogPolicy {
	cfg, err := (*Repo)(r).repoConfig()
	v, ok := configValue(cfg, "core", "", "logallrefupdates")
	switch {
	case err != nil:
		return reflogNone
	case !ok && (*Repo)(r).Bare():
		return reflogNone
	case !ok:
		return reflogNormal
	case strings.EqualFold(strings.TrimSpace(v), "always"):
		return reflogAlways
	}
	if b, known := parseGitBool(v); known && b {
		return reflogNormal
	}
	return reflogNone
}

func (r *Reflogs) reflogPath(name string) string {
	dir := r.commonDir
	if perWorktreeRef(name) {
		dir = r.gitDir
	}
	return filepath.Join(dir, "logs", filepath.FromSlash(name))
}

// shouldLog reports whether an update of name goes into a reflog.
func (r *Reflogs) shouldLog(name string, policy reflogPolicy) bool {
	if _, err := os.Stat(r.reflogPath(name)); err == nil {
		return true
	}
	switch policy {
	case reflogAlways:
		return true
	case reflogNormal:
		if name == "HEAD" {
			return true
		}
		for _, p := range []string{"refs/heads/", "refs/remotes/", "refs/notes/"} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
	}
	return false
}

// reflogEntry is the part of a reflog line known before the ref is
// locked, prepared early so that the lock is held only briefly.
type reflogEntry struct {
	policy reflogPolicy
	tail   string // committer, time and message
}

// prepareReflog reads the reflog policy and the committer identity.
func (r *Reflogs) prepareReflog(msg string) reflogEntry { return r.signer().entry(msg) }

// reflogSigner is what the reflog lines of a set of ref updates share: the reflog policy and
// the committer with the time. Reading them takes the repository's git config and the global
// ones, so that a landing of 10,000 moves reads them once, not once per ref.
type reflogSigner struct {
	policy reflogPolicy
	who    string // committer and time
}

// signer reads the reflog policy and the committer identity.
func (r *Reflogs) signer() reflogSigner {
	sig, _, err := (*Repo)(r).identity("GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL")
	if err != nil {
		sig.Name, sig.Email, sig.When = loginName(), loginName()+"@"+hostName(), time.Now()
	}
	clean := strings.NewReplacer("<", "", ">", "", "\n", " ", "\x00", "")
	who := fmt.Sprintf("%s <%s> %d %s", clean.Replace(sig.Name), clean.Replace(sig.Email),
		sig.When.Unix(), sig.When.Format("-0700"))
	return reflogSigner{policy: r.reflogPolicy(), who: who}
}

// entry is the reflog entry of an update with message msg.
func (s reflogSigner) entry(msg string) reflogEntry {
	tail := s.who
	if msg = strings.Join(strings.Fields(msg), " "); msg != "" {
		tail += "\t" + msg
	}
	return reflogEntry{policy: s.policy, tail: tail + "\n"}
}

// logRefUpdate appends to name's reflog, and to HEAD's when HEAD points
// at name, as git does. The caller holds name's lock.
func (r *Reflogs) logRefUpdate(name string, oldH, newH Hash, e reflogEntry) error {
	line := oldH.String() + " " + newH.String() + " " + e.tail
	if r.shouldLog(name, e.policy) {
		if err := appendReflog(r.reflogPath(name), line); err != nil {
			return fmt.Errorf("%s: writing reflog: %w", name, err)
		}
	}
	if head, err := (*Refs)(r).headTarget(); err == nil && head == name && r.shouldLog("HEAD", e.policy) {
		if err := appendReflog(r.reflogPath("HEAD"), line); err != nil {
			return fmt.Errorf("HEAD: writing reflog: %w", err)
		}
	}
	return nil
}

func appendReflog(path, line string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil && os.Remove(path) == nil {
		// An empty folder left by the reflogs of deleted refs below
		// this name was in the way.
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	}
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// deleteReflog removes a deleted ref's reflog, as git does.
func (r *Reflogs) deleteReflog(name string) {
	// A reflog that cannot be removed only wastes space.
	_ = os.Remove(r.reflogPath(name))
}
