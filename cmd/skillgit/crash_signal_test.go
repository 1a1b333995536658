//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// The crash harness runs the lifecycle as real skillgit processes on a repository of a few
// thousand packed skills, and stops each command with SIGINT, SIGTERM or SIGKILL at a random
// point of its run. Each round proposes a new version of one skill, approves and publishes
// it, syncs the published skills into a folder, pushes to a bare remote, rolls the skill
// back and updates a pack; every one of these commands gets a signal. After each signal
// crashCheck asserts what must hold, and the command is run again, which must succeed.
const (
	crashSkills    = 1500             // skills in the generated repository
	crashRounds    = 24               // rounds at most
	crashBudget    = 30 * time.Second // rounds stop once this much time is spent, after crashMinRounds
	crashMinRounds = 6
)

var crashSignals = []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL}

// crashHarness holds the repositories of a run and what happened in it.
type crashHarness struct {
	t       *testing.T
	bin     string
	root    string
	dir     string // the skill repository, checked out
	remote  string // its bare remote, served over file://
	packsrc string // a pack's source repository, over file://
	target  string // the folder the published skills are synced into
	tmp     string // TMPDIR of the commands
	rng     *rand.Rand
	took    map[string][]time.Duration // run times of commands that finished
	// unregistered counts, by writer, the temporary files left after SIGINT or SIGTERM.
	unregistered map[string]int
	stats        map[string]*crashCount // by "command SIGNAL"
	round        int
	pre          crashState // noted before the running command
	skill        string     // the skill of the round
	stepStart    time.Time
	synced       string // the commit of main the synced folder last matched
	// targetExtra names the entries of the synced folder that are no skill, after a sync.
	targetExtra []string
}

// crashCount counts the outcomes of one command under one signal.
type crashCount struct {
	runs         int
	finished     int // exited 0: the signal came after the command was done
	stopped      int // exited 128+signal: the handler stopped it
	killed       int // died of the signal (SIGKILL, or before the handler was installed)
	changed      int // the command's change was in place after the signal
	unchanged    int // nothing of it was
	redone       int // the command had to run again
	staleRemoved int // locks of a gone owner that the next command removed by itself
	ownerless    int // locks without an owner record
	refused      int // next commands refused naming such a lock
	byHand       int // ownerless locks removed by hand, the step `skillgit doctor --fix` takes
	tempLeft     int // temporary files a SIGKILL left, removed by hand
	syncLockLeft int // the synced folder's lock left after SIGINT or SIGTERM
	// tempAfterStop counts temporary files left after SIGINT or SIGTERM by writers that do
	// not yet register them (see unregisteredTemp).
	tempAfterStop int
	// remoteLockLeft counts git's lock files left in the remote after SIGINT or SIGTERM.
	remoteLockLeft int
}

func TestCrashSignals(t *testing.T) {
	start := time.Now()
	h := newCrashHarness(t)
	t.Logf("repository of %d skills ready in %v", crashSkills, time.Since(start).Round(time.Millisecond))
	for h.round = 0; h.round < crashRounds; h.round++ {
		if h.round >= crashMinRounds && time.Since(start) > crashBudget {
			break
		}
		h.oneRound()
		if t.Failed() {
			break
		}
	}
	h.report()
	testenv.FsckStrict(t, h.dir)
	testenv.FsckStrict(t, h.remote)
}

func newCrashHarness(t *testing.T) *crashHarness {
	root := t.TempDir()
	h := &crashHarness{t: t, root: root, took: map[string][]time.Duration{}, unregistered: map[string]int{}, stats: map[string]*crashCount{}}
	h.tmp = filepath.Join(root, "tmp")
	must(t, os.MkdirAll(h.tmp, 0o755))
	testenv.Hermetic(t, map[string]string{
		"TMPDIR": h.tmp, "GIT_CONFIG_COUNT": "1",
		"GIT_CONFIG_KEY_0": "protocol.file.allow", "GIT_CONFIG_VALUE_0": "always",
	})
	h.bin = skillgitCommand(t)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	h.rng = rand.New(rand.NewPCG(seed, 2))
	h.dir, h.remote, h.packsrc = filepath.Join(root, "repo"), filepath.Join(root, "origin.git"), filepath.Join(root, "packsrc")
	h.target = filepath.Join(root, "target")
	h.generate()
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// generate writes crashSkills skills into a new repository as one plain commit on main,
// packs it, and sets up the remote, the pack and the synced folder.
func (h *crashHarness) generate() {
	t := h.t
	h.mustRun("init", h.dir)
	files := map[string]string{}
	for i := range crashSkills {
		name := crashSkillName(i)
		files["skills/"+name+"/SKILL.md"] = crashSkillMD(name, 0)
		files["skills/"+name+"/references/notes.md"] = fmt.Sprintf("# Notes on %s\n\n%s\n", name, strings.Repeat("Check the input twice. ", 20+i%40))
	}
	testenv.WriteFiles(t, h.dir, files)
	testenv.Git(t, h.dir, "add", "-A")
	testenv.Git(t, h.dir, "-c", "gc.auto=0", "commit", "-q", "--no-verify", "-m", "skills: import")
	testenv.Git(t, h.dir, "gc", "-q")
	testenv.Git(t, h.root, "clone", "-q", "--bare", h.dir, h.remote)
	testenv.Git(t, h.dir, "remote", "add", "origin", "file://"+h.remote)
	testenv.Git(t, h.dir, "fetch", "-q", "origin")

	testenv.WriteFiles(t, h.packsrc, map[string]string{"skills/pk-base/SKILL.md": testenv.SkillMD("pk-base", "Tidy the base.")})
	testenv.Git(t, h.packsrc, "init", "-q", "-b", "main")
	testenv.Git(t, h.packsrc, "add", "-A")
	testenv.Git(t, h.packsrc, "commit", "-q", "-m", "pack v0")
	h.mustRun("-C", h.dir, "pack", "add", "demo", "file://"+h.packsrc, "--ref", "main")
	h.mustRun("-C", h.dir, "pack", "update", "demo")
	h.mustRun("-C", h.dir, "sync", "--dir", h.target)
	h.mustRun("-C", h.dir, "push")
	h.synced = strings.TrimSpace(testenv.GitText(t, h.dir, "rev-parse", "main"))
	skills := h.skillTrees(h.synced)
	entries, err := os.ReadDir(h.target)
	must(t, err)
	for _, e := range entries {
		if skills[e.Name()] == nil {
			h.targetExtra = append(h.targetExtra, e.Name())
		}
	}
	h.checkTarget(crashOutcome{}, skills, skills, false)
	t.Logf("synced folder: %d entries, of which %v are no skill", len(entries), h.targetExtra)
}

func crashSkillName(i int) string { return fmt.Sprintf("sk-%04d", i) }

func crashSkillMD(name string, version int) string {
	return testenv.SkillMD(name, fmt.Sprintf("Version %d of the steps for %s.", version, name),
		"1. Read the input.\n2. Check it twice.\n3. Write the result.")
}

// mustRun runs skillgit and fails the test unless it exits 0.
func (h *crashHarness) mustRun(args ...string) string {
	h.t.Helper()
	out, errOut, code := h.run(args...)
	if code != 0 {
		h.t.Fatalf("skillgit %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// run runs skillgit to its end and returns its output and exit status.
func (h *crashHarness) run(args ...string) (string, string, int) {
	cmd := exec.Command(h.bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		h.t.Fatalf("skillgit %s: %v", strings.Join(args, " "), err)
	}
	if code == 0 && len(args) > 2 {
		h.took[args[2]] = append(h.took[args[2]], time.Since(start))
	}
	return out.String(), errOut.String(), code
}

// crashOutcome is how a command that got a signal ended.
type crashOutcome struct {
	sig      syscall.Signal
	delay    time.Duration
	code     int  // exit status; -1 when the signal ended the process
	signaled bool // the signal ended the process
	stdout   string
	stderr   string
}

func (o crashOutcome) String() string {
	return fmt.Sprintf("%v after %v: exit %d, signaled %v, stderr %q", o.sig, o.delay, o.code, o.signaled, o.stderr)
}

// delay picks when to send the signal: squared uniform over a little more than the command's
// median run time, so that early signals, which land inside the command, are common. Once a
// command has outrun a signal twice, the signal comes at once.
func (h *crashHarness) delay(name string, sig syscall.Signal) time.Duration {
	d := 80 * time.Millisecond
	if ts := h.took[name]; len(ts) > 0 {
		s := slices.Clone(ts)
		slices.Sort(s)
		d = s[len(s)/2] * 5 / 4
	}
	if c := h.stats[name+" "+crashSigName(sig)]; c != nil && c.runs >= 2 && c.stopped+c.killed == 0 {
		return 0 // so that every command is seen stopped by every signal
	}
	u := h.rng.Float64()
	return time.Duration(u * u * float64(d))
}

// signalRun starts skillgit with args and sends it sig after a random delay.
func (h *crashHarness) signalRun(sig syscall.Signal, args ...string) crashOutcome {
	o := crashOutcome{sig: sig, delay: h.delay(args[2], sig)}
	cmd := exec.Command(h.bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	// The signal goes to the process group, as a terminal's Ctrl-C or a service manager's
	// stop does, so git processes skillgit started get it too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	must(h.t, cmd.Start())
	pid := cmd.Process.Pid
	timer := time.AfterFunc(o.delay, func() { syscall.Kill(-pid, sig) })
	cmd.Wait()
	timer.Stop()
	waitGroupGone(h.t, pid)
	o.stdout, o.stderr = out.String(), errOut.String()
	o.code = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		o.signaled = true
		if ws.Signal() != sig {
			h.t.Errorf("skillgit %s died of %v; sent %v", strings.Join(args, " "), ws.Signal(), sig)
		}
	}
	return o
}

// waitGroupGone waits until no process of the group pgid is left.
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH {
			return
		}
	}
	t.Fatalf("processes of group %d still running 10s after skillgit ended", pgid)
}

func (h *crashHarness) count(name string, sig syscall.Signal) *crashCount {
	key := name + " " + crashSigName(sig)
	if h.stats[key] == nil {
		h.stats[key] = &crashCount{}
	}
	return h.stats[key]
}

func crashSigName(sig syscall.Signal) string {
	return map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGKILL: "SIGKILL"}[sig]
}

// signalFor gives the commands of a round the signals in turn, shifted by the round.
func (h *crashHarness) signalFor(step int) syscall.Signal {
	return crashSignals[(h.round+step)%len(crashSignals)]
}

// jsonID reads the "id" field of a JSON answer.
func jsonID(t *testing.T, out string) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.ID == "" {
		t.Fatalf("no id in %q: %v", out, err)
	}
	return v.ID
}

func (h *crashHarness) report() {
	keys := make([]string, 0, len(h.stats))
	for k := range h.stats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d rounds; per command and signal: runs, finished before the signal, stopped by the handler (128+n), "+
		"ended by the signal, change in place after it / not, run again; stale locks removed by the next command, "+
		"ownerless locks (next command refused on one, removed by hand), temporary files left; the synced folder's lock left "+
		"after SIGINT or SIGTERM, temporary files left after SIGINT or SIGTERM", h.round)
	for _, k := range keys {
		c := h.stats[k]
		fmt.Fprintf(&b, "\n  %-22s %2d runs: %2d finished, %2d stopped, %2d ended; %2d changed / %2d not, %2d redone; "+
			"%d stale removed, %d ownerless (%d refused, %d by hand), %d temporary, %d sync lock, %d temporary and %d remote locks after a stop",
			k, c.runs, c.finished, c.stopped, c.killed, c.changed, c.unchanged, c.redone,
			c.staleRemoved, c.ownerless, c.refused, c.byHand, c.tempLeft, c.syncLockLeft, c.tempAfterStop, c.remoteLockLeft)
	}
	for name, ts := range h.took {
		s := slices.Clone(ts)
		slices.Sort(s)
		fmt.Fprintf(&b, "\n  %s: median run %v over %d finished runs", name, s[len(s)/2].Round(time.Millisecond), len(s))
	}
	for w, n := range h.unregistered {
		fmt.Fprintf(&b, "\n  %d temporary files left after SIGINT or SIGTERM by %s", n, w)
	}
	h.t.Log(b.String())
	for _, sig := range crashSignals {
		for _, name := range []string{"propose", "approve", "publish", "sync", "push", "rollback", "pack"} {
			c := h.stats[name+" "+crashSigName(sig)]
			if c == nil || c.runs == 0 {
				h.t.Errorf("%s never got %v", name, sig)
				continue
			}
			if c.stopped+c.killed == 0 && c.runs >= 3 {
				h.t.Errorf("%s: %v never landed before the command finished, in %d runs", name, crashSigName(sig), c.runs)
			}
		}
	}
}
