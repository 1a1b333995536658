package main

import (
	"errors"
	"fmt"
	"time"

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

Several candidates land in groups of up to 256 (or what two seconds make):
each keeps its own commit, made on the ones before it, and a group's commits are
written as one pack; then the refs the group moves (the channel, the candidate
branches) and the files of a checked-out channel move together, once. A
candidate's line is printed when its group has landed; an interrupted batch
leaves the groups that landed done and the others as they were. When a group
cannot land (another process moved one of its refs, or a checked-out file has
local changes), nothing of it moves and its candidates are acted on again one
at a time.

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

// reported is br once its line is out: what --json still prints, when it is given, else
// only the exit code, so that a batch of 10,000 keeps no audit report until its end.
func (br batchResult) reported(json bool) batchResult {
	if br.Result == nil || !json {
		br.Result = nil
		return br
	}
	res := *br.Result
	res.Reports, res.Warnings = nil, nil
	br.Result = &res
	return br
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

// batch is a command that acts on several candidates: label names its progress line, act
// acts on one, and line gives the text of a success. When held, the ref moves of each chunk of
// actions wait in memory and land together (see lifecycle.Repo.Hold): the channel is locked
// once, and a checked-out branch's files are written once, per chunk.
type batch struct {
	label string
	act   func(id string) (*lifecycle.Result, error)
	line  func(*lifecycle.Result) string
	held  bool
}

// runBatch acts on each candidate in turn, reloading the publish branch between them, and
// reports each once its refs moved. On a terminal a progress line shows how far it has got.
// It ends with the worst exit code.
func (a *app) runBatch(r *lifecycle.Repo, b batch, ids []string) error {
	out := batchJSON{Results: make([]batchResult, 0, len(ids))}
	bar := a.batchProgress(b.label)
	defer bar.Done()
	bar.Update(0, len(ids))
	for len(out.Results) < len(ids) {
		done := len(out.Results)
		// The line ends once the last chunk's results are out, not before.
		step := func(k int) { bar.Update(min(done+k, len(ids)-1), len(ids)) }
		chunk, err := a.actChunk(r, b, ids[done:], done > 0, step)
		if err != nil {
			return err
		}
		for _, br := range chunk {
			bar.Clear()
			a.reportOne(br, b.line)
			out.Results = append(out.Results, br.reported(a.json))
			bar.Update(len(out.Results), len(ids))
		}
	}
	if a.json {
		if err := writeJSON(a.Out, out); err != nil {
			return err
		}
	}
	worst := ExitOK
	for _, br := range out.Results {
		worst = worseExit(worst, br.ExitCode)
	}
	if worst != ExitOK {
		return quietExit{worst}
	}
	return nil
}

// actChunk acts on the first of ids: one unless b is held, when a held chunk ends once
// lifecycle.GroupFull says so; reload reads the publish branch again before the first, and
// step is told how many are done after each. A held chunk that cannot land is made again one
// action at a time.
func (a *app) actChunk(r *lifecycle.Repo, b batch, ids []string, reload bool, step func(int)) ([]batchResult, error) {
	if !b.held {
		return actEach(r, b.act, ids, reload, one, step)
	}
	r.Hold()
	defer r.Drop()
	began := time.Now()
	out, err := actEach(r, b.act, ids, reload, func(taken int) bool { return lifecycle.GroupFull(taken, began) }, step)
	if err != nil {
		return nil, err
	}
	warning, err := r.Land()
	if warning != "" {
		a.warn("%s", sanitize(warning))
	}
	if err == nil {
		return out, nil
	}
	if errors.Is(err, lifecycle.ErrLandedInPart) {
		a.warn("%s; the refs named did not move: run the command again for the candidates still open", sanitize(err.Error()))
		return out, nil
	}
	r.Drop()
	fmt.Fprintf(a.Err, "skillgit: %d actions could not land together (%s); making them again one at a time\n", len(out), sanitize(err.Error()))
	for i, br := range out {
		if br.Error == "" {
			again, err := actEach(r, b.act, []string{br.ID}, true, one, func(int) {})
			if err != nil {
				return nil, err
			}
			out[i] = again[0]
		}
	}
	return out, nil
}

// one is full after one action.
func one(taken int) bool { return taken >= 1 }

// actEach acts on ids in turn until full says that those taken are enough, reading the
// publish branch again before each but a first one when reload is false, and telling step how
// many are done after each.
func actEach(r *lifecycle.Repo, act func(string) (*lifecycle.Result, error), ids []string, reload bool, full func(taken int) bool, step func(int)) ([]batchResult, error) {
	var out []batchResult
	for i, id := range ids {
		if full(i) {
			break
		}
		if reload || i > 0 {
			if err := r.Reload(); err != nil {
				return nil, err
			}
		}
		res, err := act(id)
		br := batchResult{ID: id, Result: res}
		if err != nil {
			br.Error, br.ExitCode = err.Error(), exitCode(err)
		}
		out = append(out, br)
		step(len(out))
	}
	return out, nil
}

// reportOne reports what happened to one candidate of a batch: its notes, and without --json
// its line, or its error on stderr.
func (a *app) reportOne(br batchResult, line func(*lifecycle.Result) string) {
	a.printNotes(br.Result)
	switch {
	case a.json:
	case br.Error != "":
		fmt.Fprintf(a.Err, "skillgit: %s\n", sanitize(br.Error))
	default:
		fmt.Fprintln(a.Out, line(br.Result))
	}
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
