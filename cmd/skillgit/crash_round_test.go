//go:build unix

package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/internal/testenv"
)

const (
	crashProposer = "Ada Lovelace <ada@example.com>"
	crashLead     = "Grace Hopper <grace@example.com>"
)

// oneRound takes one skill through the lifecycle, each command under a signal.
func (h *crashHarness) oneRound() {
	name := crashSkillName(h.round * 97 % crashSkills)
	h.skill = name
	id := h.propose(name)
	h.approve(id)
	h.publish(id)
	h.sync()
	h.push()
	h.rollback(name)
	h.packUpdate()
}

// propose proposes version round+1 of name; a candidate branch for it appears, or nothing.
func (h *crashHarness) propose(name string) string {
	rev := filepath.Join(h.root, "revs", fmt.Sprint(h.round), name)
	testenv.WriteFiles(h.t, rev, map[string]string{
		"SKILL.md":            crashSkillMD(name, h.round+1),
		"references/notes.md": fmt.Sprintf("# Notes on %s\n\nRevised in round %d.\n", name, h.round),
	})
	args := []string{"-C", h.dir, "propose", "--from", rev, "--author", crashProposer, "--json"}
	before, o, after := h.signalStep("propose", 0, args)
	added := addedRefs(before, after, "refs/heads/candidate/")
	h.checkRefs("propose", o, before, after, func(ref string) bool { return slices.Contains(added, ref) })
	if len(added) > 1 {
		h.t.Errorf("round %d: propose of %s under %v made %d candidates: %v", h.round, name, o, len(added), added)
	}
	var redo []string
	if len(added) == 0 {
		redo = args
	}
	out := h.afterSignal("propose", o, redo, len(added) == 1)
	if len(added) == 1 {
		return strings.TrimPrefix(added[0], "refs/heads/candidate/")
	}
	return jsonID(h.t, out)
}

// approve approves id: its branch moves one approval commit on, or stays.
func (h *crashHarness) approve(id string) {
	ref := "refs/heads/candidate/" + id
	args := []string{"-C", h.dir, "approve", id, "--author", crashLead}
	before, o, after := h.signalStep("approve", 1, args)
	h.checkRefs("approve", o, before, after, func(r string) bool { return r == ref })
	moved := after[ref] != before[ref]
	if moved && h.parents(after[ref]) != before[ref] {
		h.t.Errorf("round %d: approve under %v moved %s to %s, not a child of %s", h.round, o, ref, after[ref], before[ref])
	}
	h.afterSignal("approve", o, redoUnless(moved, args), moved)
}

// publish merges id into main: main is the old tip or a merge of it and the candidate.
func (h *crashHarness) publish(id string) {
	ref := "refs/heads/candidate/" + id
	args := []string{"-C", h.dir, "publish", id, "--author", crashLead}
	before, o, after := h.signalStep("publish", 2, args)
	h.checkRefs("publish", o, before, after, func(r string) bool { return r == "refs/heads/main" || r == ref })
	moved := after["refs/heads/main"] != before["refs/heads/main"]
	if want := before["refs/heads/main"] + " " + before[ref]; moved && h.parents(after["refs/heads/main"]) != want {
		h.t.Errorf("round %d: publish under %v moved main to %s with parents %s; want %s", h.round, o, after["refs/heads/main"],
			h.parents(after["refs/heads/main"]), want)
	}
	if !moved && after[ref] != before[ref] {
		h.t.Errorf("round %d: publish under %v changed %s but not main", h.round, o, ref)
	}
	h.afterSignal("publish", o, redoUnless(moved, args), moved)
}

// rollback undoes the latest publish of name: main is the old tip or a one-parent child.
func (h *crashHarness) rollback(name string) {
	args := []string{"-C", h.dir, "rollback", name, "--author", crashLead}
	before, o, after := h.signalStep("rollback", 5, args)
	h.checkRefs("rollback", o, before, after, func(r string) bool { return r == "refs/heads/main" })
	moved := after["refs/heads/main"] != before["refs/heads/main"]
	if moved && h.parents(after["refs/heads/main"]) != before["refs/heads/main"] {
		h.t.Errorf("round %d: rollback under %v moved main to %s, not a child of %s", h.round, o, after["refs/heads/main"], before["refs/heads/main"])
	}
	h.afterSignal("rollback", o, redoUnless(moved, args), moved)
}

// packUpdate adds a skill to the pack's source and updates the pack: main moves on and a
// candidate for the skill appears, or neither; the update runs again either way, as a user
// would.
func (h *crashHarness) packUpdate() {
	skill := fmt.Sprintf("pk-r%02d", h.round)
	testenv.WriteFiles(h.t, h.packsrc, map[string]string{"skills/" + skill + "/SKILL.md": testenv.SkillMD(skill, "Sort the list.")})
	testenv.Git(h.t, h.packsrc, "add", "-A")
	testenv.Git(h.t, h.packsrc, "commit", "-q", "-m", "pack: "+skill)
	args := []string{"-C", h.dir, "pack", "update", "demo"}
	before, o, after := h.signalStep("pack", 6, args)
	added := addedRefs(before, after, "refs/heads/candidate/")
	// The update records the pack's new commit on main and proposes the new skill.
	h.checkRefs("pack", o, before, after, func(r string) bool { return r == "refs/heads/main" || slices.Contains(added, r) })
	h.afterSignal("pack", o, args, len(added) > 0 || after["refs/heads/main"] != before["refs/heads/main"])
	final := h.refs(h.dir)
	if n := len(addedRefs(before, final, "refs/heads/candidate/")); n != 1 {
		h.t.Errorf("round %d: pack update under %v, then again: %d new candidates; want 1 for %s", h.round, o, n, skill)
	}
}

// push sends main and the candidates to the remote: each remote ref is where it was or
// where the local one is.
func (h *crashHarness) push() {
	args := []string{"-C", h.dir, "push"}
	local := h.refs(h.dir)
	rBefore := h.refs(h.remote)
	before, o, after := h.signalStep("push", 4, args)
	h.checkRefs("push", o, before, after, func(r string) bool { return strings.HasPrefix(r, "refs/remotes/origin/") })
	rAfter := h.refs(h.remote)
	pushed := false
	for ref, v := range rAfter {
		if v != rBefore[ref] {
			pushed = true
		}
		if v != rBefore[ref] && v != local[ref] {
			h.t.Errorf("round %d: push under %v left the remote's %s at %s; want %s or %s", h.round, o, ref, v, rBefore[ref], local[ref])
		}
	}
	for ref := range rBefore {
		if _, ok := rAfter[ref]; !ok {
			pushed = true
			if _, ok := local[ref]; ok {
				h.t.Errorf("round %d: push under %v deleted the remote's %s, which exists here", h.round, o, ref)
			}
		}
	}
	h.checkRemote(o)
	h.afterSignal("push", o, args, pushed)
	if got := h.refs(h.remote)["refs/heads/main"]; got != local["refs/heads/main"] {
		h.t.Errorf("round %d: after the push under %v and another: the remote's main is at %s; want %s", h.round, o, got, local["refs/heads/main"])
	}
}

// sync installs the published skills into the target: every skill folder is the version
// the last complete sync installed or the one main holds now.
func (h *crashHarness) sync() {
	old := h.skillTrees(h.synced)
	main := strings.TrimSpace(testenv.GitText(h.t, h.dir, "rev-parse", "main"))
	cur := h.skillTrees(main)
	args := []string{"-C", h.dir, "sync", "--dir", h.target}
	before, o, after := h.signalStep("sync", 3, args)
	h.checkRefs("sync", o, before, after, func(string) bool { return false })
	changed := h.checkTarget(o, old, cur, true)
	h.afterSignal("sync", o, args, changed)
	h.checkTarget(o, cur, cur, false)
	h.synced = main
}

func redoUnless(done bool, args []string) []string {
	if done {
		return nil
	}
	return args
}

// addedRefs lists the refs under prefix that after has and before has not.
func addedRefs(before, after map[string]string, prefix string) []string {
	var out []string
	for ref := range after {
		if _, ok := before[ref]; !ok && strings.HasPrefix(ref, prefix) {
			out = append(out, ref)
		}
	}
	slices.Sort(out)
	return out
}

// parents returns the parents of commit, space separated.
func (h *crashHarness) parents(commit string) string {
	return strings.TrimSpace(testenv.GitText(h.t, h.dir, "log", "-1", "--format=%P", commit))
}
