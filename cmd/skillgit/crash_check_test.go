//go:build unix

package main

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/procowner"
	"github.com/skillgit/skillgit/internal/testenv"
)

// crashState is what the harness notes before a command runs, to tell what the command left.
type crashState struct {
	locks, temps []string
}

// signalStep snapshots the refs, runs args under the step's signal, and checks what must hold
// whatever the command got to: git fsck clean, and after SIGINT and SIGTERM an exit status of
// 0 or 128 plus the signal, and no lock file or temporary file that was not there before.
func (h *crashHarness) signalStep(name string, step int, args []string) (before map[string]string, o crashOutcome, after map[string]string) {
	sig := h.signalFor(step)
	before = h.refs(h.dir)
	h.pre = crashState{locks: h.lockIDs(), temps: h.tempFiles()}
	o = h.signalRun(sig, args...)
	after = h.refs(h.dir)
	where := fmt.Sprintf("round %d: %s under %v", h.round, name, o)
	if out, err := exec.Command("git", "-C", h.dir, "fsck", "--no-dangling").CombinedOutput(); err != nil {
		h.t.Fatalf("%s: git fsck: %v\n%s", where, err, out)
	}
	if head := strings.TrimSpace(testenv.GitText(h.t, h.dir, "symbolic-ref", "HEAD")); head != "refs/heads/main" {
		h.t.Errorf("%s: HEAD is %s", where, head)
	}
	if sig == syscall.SIGKILL {
		return before, o, after
	}
	// A command whose git child the signal stopped first may see the broken pipe before its
	// own signal; it must still report the signal.
	if !o.signaled && o.code != 0 && o.code != 128+int(sig) {
		h.t.Errorf("%s: exit %d; want 0 or %d", where, o.code, 128+int(sig))
	}
	left := without(h.lockIDs(), h.pre.locks)
	if slices.ContainsFunc(left, func(l string) bool { return strings.HasPrefix(l, h.targetLock()+" ") }) {
		h.count(name, sig).syncLockLeft++ // failed below with the others
	}
	left = slices.DeleteFunc(left, func(l string) bool { return strings.HasPrefix(l, h.remote+string(filepath.Separator)) })
	if len(left) > 0 {
		h.t.Errorf("%s: lock files left: %v", where, left)
	}
	for _, p := range without(h.tempFiles(), h.pre.temps) {
		if owner := unregisteredTemp(p); owner != "" {
			// A kind of temporary file whose writer is only now being taught to register it
			// for removal on a signal: counted and reported by writer.
			h.count(name, sig).tempAfterStop++
			h.unregistered[owner]++
			h.t.Logf("%s: temporary file left: %s (written by %s)", where, p, owner)
			continue
		}
		h.t.Errorf("%s: temporary file left: %s", where, p)
	}
	return before, o, after
}

// checkRefs requires every ref that changed to be one the command may change, moved forward
// or deleted, never rewound.
func (h *crashHarness) checkRefs(name string, o crashOutcome, before, after map[string]string, allowed func(string) bool) {
	for ref, v := range after {
		old, ok := before[ref]
		switch {
		case ok && old == v:
		case !allowed(ref):
			h.t.Errorf("round %d: %s under %v changed %s from %q to %s", h.round, name, o, ref, old, v)
		case ok && exec.Command("git", "-C", h.dir, "merge-base", "--is-ancestor", old, v).Run() != nil:
			h.t.Errorf("round %d: %s under %v moved %s from %s to %s, which does not descend from it", h.round, name, o, ref, old, v)
		}
	}
	for ref := range before {
		if _, ok := after[ref]; !ok && !allowed(ref) {
			h.t.Errorf("round %d: %s under %v deleted %s", h.round, name, o, ref)
		}
	}
}

// afterSignal counts the outcome, then runs the next command: redo, when the command must
// run again, which must succeed. After SIGKILL a lock of a gone skillgit must not stop it; a
// lock without an owner record may, naming the lock, and is then removed by hand, as
// `skillgit doctor --fix` would. The working tree must be clean afterwards.
func (h *crashHarness) afterSignal(name string, o crashOutcome, redo []string, changed bool) string {
	c := h.count(name, o.sig)
	c.runs++
	switch {
	case o.signaled:
		c.killed++
	case o.code == 0:
		c.finished++
	default:
		c.stopped++
	}
	if changed {
		c.changed++
	} else {
		c.unchanged++
	}
	where := fmt.Sprintf("round %d: %s under %v", h.round, name, o)
	recorded, ownerless := h.heldLocks()
	if _, err := os.Lstat(h.targetLock()); err == nil {
		recorded = append(recorded, h.targetLock()) // it holds its owner's process id
	}
	c.ownerless += len(ownerless)
	out, errOut := "", ""
	if redo != nil {
		c.redone++
		stdout, stderr, code := h.run(redo...)
		if code != 0 && len(ownerless) > 0 {
			c.refused++
			// pack update reports each pack's failure in its summary, on stdout.
			if said := stdout + stderr; !namesAnyOf(said, ownerless) || !strings.Contains(said, "doctor --fix") {
				h.t.Errorf("%s: the next %s, with the locks %v nobody owns: exit %d, %q; want the locks named and doctor --fix", where, name, ownerless, code, said)
			}
			c.byHand += h.removeByHand(ownerless)
			errOut = stderr
			stdout, stderr, code = h.run(redo...)
		}
		if code != 0 {
			h.t.Errorf("%s: the next %s: exit %d\n%s%s", where, name, code, stdout, stderr)
		}
		out, errOut = stdout, errOut+stderr
	}
	for _, l := range recorded {
		if _, err := os.Lstat(l); err != nil {
			c.staleRemoved++
			if l != h.targetLock() && !strings.Contains(errOut, "skillgit: removed the stale lock ") {
				h.t.Errorf("%s: the next %s removed the stale lock %s without a word on stderr: %q", where, name, l, errOut)
			}
		} else if l == h.targetLock() && redo != nil {
			h.t.Errorf("%s: the next sync left the synced folder's lock of a gone process in place", where)
		}
	}
	_, ownerless = h.heldLocks()
	c.byHand += h.removeByHand(ownerless)
	if temps := without(h.tempFiles(), h.pre.temps); len(temps) > 0 {
		if o.sig == syscall.SIGKILL {
			c.tempLeft += len(temps)
			h.t.Logf("%s: temporary files left: %v", where, temps)
		}
		for _, p := range temps {
			os.RemoveAll(p)
		}
	}
	if st := testenv.GitText(h.t, h.dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		h.t.Errorf("%s: git status after the next command:\n%s", where, st)
	}
	return out
}

// removeByHand removes lock files, the step a person or `skillgit doctor --fix` takes for a
// lock nobody owns, and returns how many.
func (h *crashHarness) removeByHand(locks []string) int {
	for _, l := range locks {
		h.t.Logf("round %d: removing by hand %s", h.round, l)
		if err := os.Remove(l); err != nil {
			h.t.Fatal(err)
		}
	}
	return len(locks)
}

// checkRemote requires the remote to pass git fsck, and counts the lock files left in it,
// git's own, which it removes by hand.
func (h *crashHarness) checkRemote(o crashOutcome) {
	if out, err := exec.Command("git", "-C", h.remote, "fsck", "--no-dangling").CombinedOutput(); err != nil {
		h.t.Fatalf("round %d: push under %v: git fsck of the remote: %v\n%s", h.round, o, err, out)
	}
	locks := findLocks(h.remote)
	if len(locks) == 0 {
		return
	}
	c := h.count("push", o.sig)
	if o.sig != syscall.SIGKILL {
		// The first signal cancels the push's context, and go-git answers a cancelled
		// transfer by killing the remote's receive-pack, which over file:// runs here, so
		// git cannot remove its ref lock: counted and reported, removed by hand below.
		c.remoteLockLeft += len(locks)
		h.t.Logf("round %d: push under %v left git's lock files in the remote: %v", h.round, o, locks)
	}
	c.ownerless += len(locks)
	c.byHand += h.removeByHand(locks)
}

// refs maps every ref of the repository at dir to its object.
func (h *crashHarness) refs(dir string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(testenv.GitText(h.t, dir, "for-each-ref", "--format=%(refname) %(objectname)"), "\n") {
		if ref, v, ok := strings.Cut(line, " "); ok {
			out[ref] = v
		}
	}
	return out
}

// targetLock is the lock a sync holds in the synced folder.
func (h *crashHarness) targetLock() string { return filepath.Join(h.target, filenames.FolderMutex) }

// lockFiles lists the lock files of the repository, of the remote and of the synced folder.
func (h *crashHarness) lockFiles() []string {
	out := append(findLocks(filepath.Join(h.dir, ".git")), findLocks(h.remote)...)
	if _, err := os.Lstat(h.targetLock()); err == nil {
		out = append(out, h.targetLock())
	}
	return out
}

// lockIDs names each lock file of lockFiles by its path and inode, so that a lock made
// again at the path of an older one is told from it.
func (h *crashHarness) lockIDs() []string {
	var out []string
	for _, p := range h.lockFiles() {
		if fi, err := os.Lstat(p); err == nil {
			out = append(out, fmt.Sprintf("%s (inode %d)", p, fi.Sys().(*syscall.Stat_t).Ino))
		}
	}
	return out
}

// findLocks lists the *.lock files below dir.
func findLocks(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// tempName matches the names of the temporary files and folders of skillgit and git.
var tempName = regexp.MustCompile(`^(\.tmp-|tmp_|\.new-|incoming-|\.skillgit-tmp-)|\.tmp-|^\.skillgit-[0-9a-f]{16}\.tmp$|^\..+\.skillgit-|\.break$`)

// tempFiles lists the temporary files in the git folder, the remote, the synced folder,
// TMPDIR, the owner records skillgit keeps for its locks, and the folders of the working
// tree a command of the round writes: the top, skills, the round's skill and .skillgit.
func (h *crashHarness) tempFiles() []string {
	var out []string
	for _, dir := range []string{filepath.Join(h.dir, ".git"), h.remote} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && p != dir && tempName.MatchString(d.Name()) {
				out = append(out, p)
				if d.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
	}
	shallow := []string{h.target, h.dir, filepath.Join(h.dir, "skills"), filepath.Join(h.dir, ".skillgit"),
		filepath.Join(h.dir, "skills", h.skill), filepath.Join(h.dir, "skills", h.skill, "references")}
	for _, dir := range shallow {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if tempName.MatchString(e.Name()) {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	entries, _ := os.ReadDir(h.tmp)
	for _, e := range entries {
		out = append(out, filepath.Join(h.tmp, e.Name()))
	}
	owners := filepath.Join(h.dir, ".git", filepath.FromSlash(gitstore.OwnersDir))
	entries, _ = os.ReadDir(owners)
	for _, e := range entries {
		if p := filepath.Join(owners, e.Name()); !slices.Contains(out, p) && !recordOfLock(p) {
			out = append(out, p)
		}
	}
	return out
}

// recordOfLock reports whether p is an owner record whose lock file exists: the record of a
// held or stale lock, which is no leftover of its own.
func recordOfLock(p string) bool {
	data, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	_, extra, err := procowner.Parse(data)
	if err != nil || extra["lock"] == "" {
		return false
	}
	_, err = os.Lstat(extra["lock"])
	return err == nil
}

// unregisteredTemp names the writer of a temporary file that is not skillgit's to remove,
// one git leaves when the signal reaches it too; "" for any other file, which skillgit
// registers for removal and must not leave.
func unregisteredTemp(p string) string {
	if strings.HasPrefix(filepath.Base(p), "tmp_objdir-incoming-") {
		// The remote's receive-pack runs in the signalled process group over file://.
		return "git receive-pack in the remote"
	}
	return ""
}

// heldLocks sorts the repository's lock files into those whose recorded skillgit owner is
// gone and those without an owner record; no command runs meanwhile, so a lock of a live
// owner fails the test.
func (h *crashHarness) heldLocks() (recorded, ownerless []string) {
	g, err := gitstore.Open(h.dir)
	if err != nil {
		h.t.Fatal(err)
	}
	defer g.Close()
	paths, err := g.Locks().List()
	if err != nil {
		h.t.Fatal(err)
	}
	for _, p := range paths {
		o, err := g.Locks().Inspect(p)
		switch {
		case err != nil:
		case !o.Recorded:
			ownerless = append(ownerless, p)
		case !o.Gone:
			h.t.Fatalf("round %d: %s: %s", h.round, p, o.Describe())
		default:
			recorded = append(recorded, p)
		}
	}
	for _, p := range findLocks(filepath.Join(h.dir, ".git")) {
		if !slices.Contains(paths, p) {
			ownerless = append(ownerless, p) // a lock LockFiles does not list: git's own
		}
	}
	return recorded, ownerless
}

func namesAnyOf(msg string, paths []string) bool {
	for _, p := range paths {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// without returns the elements of a not in b.
func without(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// skillFiles is one skill's files by path inside its folder, as git's mode and blob id.
type skillFiles map[string]string

// skillTrees reads the skills of commit: each skill folder's files.
func (h *crashHarness) skillTrees(commit string) map[string]skillFiles {
	out := map[string]skillFiles{}
	for _, line := range strings.Split(testenv.GitText(h.t, h.dir, "ls-tree", "-r", commit, "--", "skills/"), "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		rest := strings.TrimPrefix(path, "skills/")
		name, file, ok := strings.Cut(rest, "/")
		if !ok {
			continue
		}
		if out[name] == nil {
			out[name] = skillFiles{}
		}
		out[name][file] = f[0] + " " + f[2]
	}
	return out
}

// installedFiles reads a synced skill folder as skillFiles.
func installedFiles(dir string) (skillFiles, error) {
	out := skillFiles{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		mode := "100644"
		if fi.Mode()&0o111 != 0 {
			mode = "100755"
		}
		sum := sha1.Sum(append([]byte(fmt.Sprintf("blob %d\x00", len(data))), data...))
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = mode + " " + hex.EncodeToString(sum[:])
		return nil
	})
	return out, err
}

func sameFiles(a, b skillFiles) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkTarget requires every skill folder in the synced folder to equal, byte for byte, its
// version in old or in cur, and a skill of old to be there unless cur drops it; other
// entries must be those a complete sync leaves. It reports whether any folder holds cur's
// version where old's differs.
func (h *crashHarness) checkTarget(o crashOutcome, old, cur map[string]skillFiles, during bool) bool {
	where := fmt.Sprintf("round %d: sync under %v", h.round, o)
	if !during {
		where += ", then again"
	}
	entries, err := os.ReadDir(h.target)
	if err != nil {
		h.t.Fatal(err)
	}
	changed, seen := false, map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if old[name] == nil && cur[name] == nil {
			if !slices.Contains(h.targetExtra, name) && !tempName.MatchString(name) && (!during || name != filepath.Base(h.targetLock())) {
				h.t.Errorf("%s: %s in the synced folder is no skill of main", where, name)
			}
			continue
		}
		seen[name] = true
		got, err := installedFiles(filepath.Join(h.target, name))
		if err != nil {
			h.t.Errorf("%s: %v", where, err)
			continue
		}
		switch {
		case sameFiles(got, cur[name]):
			changed = changed || !sameFiles(got, old[name])
		case sameFiles(got, old[name]):
		default:
			h.t.Errorf("%s: %s in the synced folder is neither the old nor the new version", where, name)
		}
	}
	for name := range old {
		if !seen[name] && cur[name] != nil {
			h.t.Errorf("%s: %s, installed before, is missing from the synced folder", where, name)
		}
	}
	if !during {
		for name := range cur {
			if !seen[name] {
				h.t.Errorf("%s: %s is not installed", where, name)
			}
		}
	}
	return changed
}
