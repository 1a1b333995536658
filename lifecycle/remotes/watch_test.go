package remotes

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
)

// watchRun runs Watch in a goroutine and collects the tips its callback sees.
type watchRun struct {
	tips   chan gitstore.Hash
	done   chan error
	cancel context.CancelFunc
}

func startWatch(t *testing.T, r *lifecycle.Repo, o WatchOptions) *watchRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchRun{tips: make(chan gitstore.Hash, 64), done: make(chan error, 1), cancel: cancel}
	go func() {
		w.done <- Watch(ctx, r, o, func(ctx context.Context, tip gitstore.Hash) error {
			w.tips <- tip
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-w.done
	})
	return w
}

// next waits up to 5 s for the callback and checks the tip it got.
func (w *watchRun) next(t *testing.T, want string) {
	t.Helper()
	select {
	case tip := <-w.tips:
		if tip.String() != want {
			t.Fatalf("callback got tip %s; want %s", tip, want)
		}
	case err := <-w.done:
		t.Fatalf("Watch ended early: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatalf("callback did not see tip %s within 5 s", want)
	}
}

// stop cancels the watch and checks that it ends promptly and cleanly.
func (w *watchRun) stop(t *testing.T) {
	t.Helper()
	w.cancel()
	select {
	case err := <-w.done:
		if err != nil {
			t.Fatalf("Watch returned %v after cancel; want nil", err)
		}
		w.done <- nil
	case <-time.After(time.Second):
		t.Fatal("Watch did not stop within 1 s of cancel")
	}
	select {
	case tip := <-w.tips:
		t.Fatalf("callback called again with %s, for no change", tip)
	default:
	}
}

func TestWatchFollowsLocalPublishes(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	id := lifecycletest.ProposeNew(t, dir, "pdf-tools", cleanLine).ID
	lifecycletest.ApproveAsLead(t, dir, id)
	w := startWatch(t, lifecycletest.Open(t, dir), WatchOptions{Interval: 50 * time.Millisecond})
	w.next(t, refAt(t, dir, "main"))

	go func() {
		r, err := lifecycle.Open(dir)
		if err == nil {
			defer r.Close()
			_, err = r.Publish(id, "", lifecycletest.Lead)
		}
		if err != nil {
			t.Errorf("publish: %v", err)
		}
	}()
	// The publish commit is on main once the callback reports it.
	select {
	case tip := <-w.tips:
		if tip.String() != refAt(t, dir, "main") || refAt(t, dir, "main^2") == "" {
			t.Fatalf("callback got %s; main is %s", tip, refAt(t, dir, "main"))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("callback did not see the publish within 5 s")
	}

	if _, err := lifecycletest.Open(t, dir).Rollback("pdf-tools", "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	w.next(t, refAt(t, dir, "main"))

	testenv.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "a commit made with git")
	w.next(t, refAt(t, dir, "main"))
	time.Sleep(200 * time.Millisecond)
	w.stop(t)
}

func TestWatchFollowsRemotePublishes(t *testing.T) {
	s := newRemoteSetup(t)
	w := startWatch(t, lifecycletest.Open(t, s.b), WatchOptions{Remote: "origin", Interval: 100 * time.Millisecond})
	w.next(t, refAt(t, s.bare, "main"))
	id := lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	lifecycletest.ApproveAsLead(t, s.a, id)
	publish(t, s.a, id)
	push(t, s.a)
	want := refAt(t, s.bare, "main")
	w.next(t, want)
	if got := refAt(t, s.b, "refs/remotes/origin/main"); got != want {
		t.Fatalf("b's refs/remotes/origin/main = %q; want the fetched tip %s", got, want)
	}
	if got := refAt(t, s.b, want+"^{tree}"); got == "" {
		t.Fatal("b lacks the tree of the remote's new tip")
	}
	w.stop(t)
	testenv.Fsck(t, s.b)
}

func TestWatchCallbackFailures(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	r := lifecycletest.Open(t, dir)
	boom := errors.New("boom")
	calls := 0
	err := Watch(context.Background(), r, WatchOptions{Interval: time.Millisecond}, func(context.Context, gitstore.Hash) error {
		calls++
		return boom
	})
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("Watch without OnError: err %v after %d calls; want boom after 1", err, calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var reported []error
	calls = 0
	err = Watch(ctx, r, WatchOptions{Interval: time.Millisecond, MaxInterval: 4 * time.Millisecond, OnError: func(err error) {
		if reported = append(reported, err); len(reported) == 3 {
			cancel()
		}
	}}, func(context.Context, gitstore.Hash) error {
		calls++
		return boom
	})
	if err != nil || calls != 3 || len(reported) != 3 {
		t.Fatalf("Watch with OnError: err %v, %d calls, %d reports; want nil, 3, 3 (the same tip retried)", err, calls, len(reported))
	}
	if err := Watch(context.Background(), r, WatchOptions{Channel: "beta"}, nil); err == nil {
		t.Fatal("Watch of an unknown channel: no error")
	}
}
