package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle/agentsync"
)

const syncVerifyHelp = `
--verify checks, in every target the project's .skillgit-sync.lock lists, that each
locked skill is installed byte for byte as locked (its folder's git tree id is the lock's)
and that nothing else is there besides skillgit's own files (the manifest and the folder's
lock, as files). It reads only the lock and the installed files: it writes nothing, fetches
nothing, and works without the skill repository. It reports each skill modified (with the
files that differ when the locked tree can be read from a copy of the skill repository on
this machine or from another target), missing, foreign (not in the lock, such as a name
that only looks like skillgit's), a leftover of an interrupted sync (.skillgit-tmp-*,
.skillgit-old-*: a copy an agent may load as a skill; sync or doctor --fix removes it), of
the wrong type (a link or file where a folder or file should be, a pipe, a device) or
unreadable (such as a file over 64 MiB), and each target folder missing; it exits 1 on any difference, 0 with a one-line summary
when all match. The lock is found at the project's top (beside .skillgit-sync.yaml) or in
--project DIR. With --json:
  {"project": DIR, "lock": FILE, "commit": C, "targets": N, "skills": N, "ok": B,
  "problems": [{"kind": K, "target": DIR, "skill": NAME, "path": P, "want": TREE,
  "got": TREE, "files": [{"path": P, "change": C}], "detail": TEXT}]}
K is modified, missing, foreign, leftover, type, unreadable or target-missing; C is modified, mode
(the execute bit), added, removed or type.`

type verifyJSON struct {
	Project  string              `json:"project"`
	Lock     string              `json:"lock"`
	Commit   string              `json:"commit"`
	Targets  int                 `json:"targets"`
	Skills   int                 `json:"skills"`
	OK       bool                `json:"ok"`
	Problems []verifyProblemJSON `json:"problems"`
}

type verifyProblemJSON struct {
	Kind   string           `json:"kind"`
	Target string           `json:"target"`
	Skill  string           `json:"skill,omitempty"`
	Path   string           `json:"path"`
	Want   string           `json:"want,omitempty"`
	Got    string           `json:"got,omitempty"`
	Files  []verifyFileJSON `json:"files,omitempty"`
	Detail string           `json:"detail,omitempty"`
}

type verifyFileJSON struct {
	Path   string `json:"path"`
	Change string `json:"change"`
}

// addVerifyFlag declares sync's --verify and runs it in place of a sync when it is given.
func (o *syncOptions) addVerifyFlag(c *cobra.Command) {
	var verify bool
	c.Use += " [--verify]"
	c.Long += "\n" + syncVerifyHelp
	c.Flags().BoolVar(&verify, "verify", false, "check that the installed skills are exactly those of the lock; write nothing")
	run := c.RunE
	c.RunE = func(c *cobra.Command, args []string) error {
		if !verify {
			return run(c, args)
		}
		if err := verifyFlagsAlone(c); err != nil {
			return err
		}
		return o.syncVerify()
	}
}

// verifyFlagsAlone refuses, beside --verify, every flag but --project, --json and -C.
func verifyFlagsAlone(c *cobra.Command) error {
	f := c.Flags()
	allowed := 0
	for _, name := range []string{"verify", "project", "json", "repo"} {
		if f.Changed(name) {
			allowed++
		}
	}
	if f.NFlag() > allowed {
		return usageError{fmt.Errorf("--verify takes no flag but --project, --json and -C: it checks the targets of the lock and changes nothing")}
	}
	return nil
}

func (o *syncOptions) syncVerify() error {
	a := o.app
	rep, err := agentsync.Verify(agentsync.VerifyRequest{Dir: a.repo, Project: o.project})
	if err != nil {
		return err
	}
	out := verifyJSON{Project: rep.Project, Lock: rep.Lock, Commit: rep.Commit, Targets: rep.Targets, Skills: rep.Skills,
		OK: len(rep.Problems) == 0, Problems: problemsJSON(rep.Problems)}
	if err := a.printResult(out, func(w io.Writer) error { return printVerify(w, rep) }); err != nil {
		return err
	}
	if len(rep.Problems) > 0 {
		a.warn("%s from %s; %s", countOf(len(rep.Problems), "difference", "differences"), sanitize(rep.Lock), verifyRepair)
		return quietExit{ExitError}
	}
	return nil
}

// verifyRepair says how differences from the lock are repaired.
const verifyRepair = "`skillgit sync --force` installs the locked skills again, foreign entries must be removed by hand"

// problemsJSON lists differences from the lock as --json prints them.
func problemsJSON(problems []agentsync.VerifyProblem) []verifyProblemJSON {
	out := []verifyProblemJSON{}
	for _, p := range problems {
		j := verifyProblemJSON{Kind: string(p.Kind), Target: p.Target, Skill: p.Skill, Path: p.Path, Want: p.Want, Got: p.Got, Detail: p.Detail}
		for _, f := range p.Files {
			j.Files = append(j.Files, verifyFileJSON(f))
		}
		out = append(out, j)
	}
	return out
}

// printVerify prints each difference, its files indented below it, or one summary line.
func printVerify(w io.Writer, rep *agentsync.VerifyReport) error {
	printProblems(w, rep.Problems)
	if len(rep.Problems) == 0 {
		verb := "match"
		if rep.Skills == 1 {
			verb = "matches"
		}
		fmt.Fprintf(w, "verified: %s in %s %s %s (commit %s)\n", countOf(rep.Skills, "skill", "skills"), countOf(rep.Targets, "target", "targets"),
			verb, sanitize(rep.Lock), shortHash(rep.Commit))
	}
	return nil
}

// printProblems prints each difference from the lock, its files indented below it.
func printProblems(w io.Writer, problems []agentsync.VerifyProblem) {
	for _, p := range problems {
		line := string(p.Kind) + " " + sanitize(p.Path)
		if p.Got != "" {
			line += fmt.Sprintf(": tree %s, locked %s", shortHash(p.Got), shortHash(p.Want))
		}
		if p.Detail != "" {
			line += ": " + sanitize(p.Detail)
		}
		fmt.Fprintln(w, line)
		for _, f := range p.Files {
			fmt.Fprintf(w, "  %s %s\n", f.Change, sanitize(f.Path))
		}
	}
}
