package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
)

// approvedRepo makes a repository with main checked out and n approved candidates of the
// skills batch-0, batch-1, …, and returns it with their ids.
func approvedRepo(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := lifecycletest.NewRepo(t)
	var ids []string
	for k := range n {
		id := lifecycletest.ProposeNew(t, dir, fmt.Sprintf("batch-%d", k), "Use the date command to print the date.").ID
		lifecycletest.ApproveAsLead(t, dir, id)
		ids = append(ids, id)
	}
	return dir, ids
}

// TestHeldBatchMadeAgainWhenMainMoves checks a held publish batch whose chunk cannot land
// because another process published meanwhile: it says so, publishes each candidate again
// on the new tip, one at a time, and reports every one published, with the other process's
// publish kept.
func TestHeldBatchMadeAgainWhenMainMoves(t *testing.T) {
	dir, ids := approvedRepo(t, 3)
	r := lifecycletest.Open(t, dir)
	var stdout, stderr bytes.Buffer
	a := &app{Stdio: Stdio{Out: &stdout, Err: &stderr}, json: true}
	var other string
	calls := 0
	act := func(id string) (*lifecycle.Result, error) {
		if calls++; calls == 2 {
			// Another process publishes the last candidate after this batch held its first.
			o, err := lifecycle.Open(dir)
			if err != nil {
				return nil, err
			}
			res, err := o.Publish(ids[2], "", lifecycletest.Lead)
			o.Close()
			if err != nil {
				return nil, err
			}
			other = res.Commit
		}
		return r.Publish(id, "", lifecycletest.Lead)
	}
	err := a.runBatch(r, batch{label: "publishing candidates", act: act, line: publishedLine, held: true}, ids[:2])
	if err != nil {
		t.Fatalf("runBatch: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "could not land together") {
		t.Errorf("stderr does not say the chunk is made again:\n%s", stderr.String())
	}
	var out batchJSON
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 2 {
		t.Fatalf("results: %+v", out.Results)
	}
	for _, br := range out.Results {
		if br.Error != "" || br.Result == nil || br.Result.State != lifecycle.StatePublished {
			t.Errorf("%s: %+v, want published", br.ID, br)
		}
	}
	log := testenv.GitText(t, dir, "log", "--format=%H %s", "main")
	for _, want := range []string{other, out.Results[0].Result.Commit, out.Results[1].Result.Commit} {
		if !strings.Contains(log, want) {
			t.Errorf("main's history lacks %s:\n%s", want, log)
		}
	}
	if st := testenv.GitText(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the batch:\n%s", st)
	}
	if b := testenv.GitText(t, dir, "for-each-ref", "refs/heads/candidate/"); b != "" {
		t.Errorf("candidate branches left:\n%s", b)
	}
}
