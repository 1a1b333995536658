package lifecycle

import "testing"

// TestStatesFromRememberedWalk runs a batch of publishes and a rollback through one open
// repository, which reads each candidate's history from the walk it made for the one
// before, and checks every candidate's state, at each step, against a repository opened
// afresh, which walks the whole history.
func TestStatesFromRememberedWalk(t *testing.T) {
	dir := newRepo(t)
	var ids []string
	for _, name := range []string{"alpha", "beta", "gamma", "delta", "omega"} {
		ids = append(ids, proposeNew(t, dir, name, cleanLine).ID)
	}
	for _, id := range ids[:4] {
		approveAsLead(t, dir, id)
	}
	r := open(t, dir)
	states := func(o *Repo) map[string]State {
		t.Helper()
		cs, err := o.Book().Candidates("all")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]State{}
		for _, c := range cs {
			out[c.ID] = c.State
		}
		return out
	}
	check := func(step string) {
		t.Helper()
		got, want := states(r), states(open(t, dir))
		if len(want) != len(ids) {
			t.Fatalf("%s: %d candidates listed afresh, want %d", step, len(want), len(ids))
		}
		for _, id := range ids {
			if got[id] != want[id] {
				t.Errorf("%s: %s is %s through the batch, %s read afresh", step, id, got[id], want[id])
			}
		}
	}
	act := func(step string, fn func() (*Result, error)) {
		t.Helper()
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		if _, err := fn(); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		check(step)
	}
	act("publish alpha", func() (*Result, error) { return r.Publish(ids[0], "", lead) })
	act("publish beta", func() (*Result, error) { return r.Publish(ids[1], "", lead) })
	act("roll beta back", func() (*Result, error) { return r.Rollback("beta", "", lead) })
	act("publish gamma", func() (*Result, error) { return r.Publish(ids[2], "", lead) })
	act("publish delta", func() (*Result, error) { return r.Publish(ids[3], "", lead) })
}
