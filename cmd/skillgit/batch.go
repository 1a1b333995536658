package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// batchHelp is the part of the help of approve and publish about acting on several
// candidates; label names the progress line.
func batchHelp(label string) string {
	return `
Several IDs, or --pack NAME (every open candidate of that skill pack, by skill
name), act on each candidate in turn: each is checked, audited and recorded with
its own commit as if named alone, and one that fails or is refused does not stop
the others. One line reports each (--json: {"results": [...]}, each with "id"
and either "result" or "error" and "exit_code"; a single ID reports its result
alone, and fails with its own exit code). The exit code is the worst
outcome: 1 (an error) over 3 (refused) over 4 (conflict) over 0. --pack with no
open candidate of the pack says so on stderr and exits 0.

` + progressHelp("a batch", label) + `

An ID may be the name of a skill that has exactly one open candidate; an id
always wins over a skill name.`
}

// batchResult is what happened to one candidate of a command that acts on several.
type batchResult struct {
	// ID is the candidate as it was named: its id, or a skill name.
	ID       string            `json:"id"`
	Result   *lifecycle.Result `json:"result,omitempty"`
	Error    string            `json:"error,omitempty"`
	ExitCode int               `json:"exit_code"`
}

type batchJSON struct {
	Results []batchResult `json:"results"`
}

// batchArgs checks the arguments of a command that takes IDs or --pack NAME.
func batchArgs(pack *string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		switch {
		case *pack != "" && len(args) > 0:
			return usageError{fmt.Errorf("%s takes candidate IDs or --pack NAME, not both", c.CommandPath())}
		case *pack == "" && len(args) == 0:
			return usageError{fmt.Errorf("%s needs a candidate ID (or several, or --pack NAME)", c.CommandPath())}
		}
		return nil
	}
}

// batchTargets is the candidates a command acts on: the IDs given, or the candidates of pack
// in one of states. It reports false when there are none, having said so.
func (a *app) batchTargets(r *lifecycle.Repo, ids []string, pack string, states ...lifecycle.State) ([]string, bool, error) {
	if pack == "" {
		return ids, true, nil
	}
	ids, err := r.Book().PackCandidates(pack, states...)
	if err != nil || len(ids) > 0 {
		return ids, err == nil, err
	}
	if a.json {
		return nil, false, writeJSON(a.Out, batchJSON{Results: []batchResult{}})
	}
	fmt.Fprintf(a.Err, "no open candidates of pack %s; `skillgit pack update %s` proposes its changes\n", sanitize(pack), sanitize(pack))
	return nil, false, nil
}

// runBatch acts on each candidate in turn, reloading the publish branch between them, and
// reports each: line gives the text of a success. On a terminal a progress line labelled
// label shows how far it has got. It ends with the worst exit code.
func (a *app) runBatch(r *lifecycle.Repo, label string, ids []string, act func(id string) (*lifecycle.Result, error), line func(*lifecycle.Result) string) error {
	out := batchJSON{Results: make([]batchResult, 0, len(ids))}
	worst := ExitOK
	bar := a.batchProgress(label)
	defer bar.Done()
	bar.Update(0, len(ids))
	for i, id := range ids {
		if i > 0 {
			if err := r.Reload(); err != nil {
				return err
			}
		}
		res, err := act(id)
		br := batchResult{ID: id, Result: res}
		bar.Clear()
		a.printNotes(res)
		if err != nil {
			br.Error, br.ExitCode = err.Error(), exitCode(err)
			worst = worseExit(worst, br.ExitCode)
			if !a.json {
				fmt.Fprintf(a.Err, "skillgit: %s\n", sanitize(err.Error()))
			}
		} else if !a.json {
			fmt.Fprintln(a.Out, line(res))
		}
		out.Results = append(out.Results, br)
		bar.Update(i+1, len(ids))
	}
	if a.json {
		if err := writeJSON(a.Out, out); err != nil {
			return err
		}
	}
	if worst != ExitOK {
		return quietExit{worst}
	}
	return nil
}

// worseExit returns the worse of two exit codes: an error over a refusal over a conflict over
// success.
func worseExit(a, b int) int {
	rank := func(c int) int {
		switch c {
		case ExitOK:
			return 0
		case ExitConflict:
			return 1
		case ExitRefused:
			return 2
		}
		return 3
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
