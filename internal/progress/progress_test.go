package progress

import (
	"bytes"
	"testing"
	"time"
)

// clock is a clock that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// newTest is a Counter labelled "publishing candidates" that waits one second on a terminal,
// with its output and its clock.
func newTest(terminal bool) (*Counter, *bytes.Buffer, *clock) {
	var out bytes.Buffer
	clk := &clock{t: time.Unix(1700000000, 0)}
	c := New(&out, Options{Label: "publishing candidates", Delay: time.Second, Terminal: terminal, Now: clk.now})
	return c, &out, clk
}

// newShown is a counter of newTest that shows "publishing candidates: 3/10", having written
// that and nothing else.
func newShown(t *testing.T, terminal bool) (*Counter, *bytes.Buffer, *clock) {
	t.Helper()
	c, out, clk := newTest(terminal)
	c.Update(0, 10)
	clk.advance(2 * time.Second)
	c.Update(3, 10)
	expect(t, out, "two seconds in", "publishing candidates: 3/10\r")
	return c, out, clk
}

// expect checks what the counter wrote since the last check, and forgets it.
func expect(t *testing.T, out *bytes.Buffer, step, want string) {
	t.Helper()
	if got := out.String(); got != want {
		t.Errorf("%s: wrote %q, want %q", step, got, want)
	}
	out.Reset()
}

func TestSilentUnderDelay(t *testing.T) {
	c, out, clk := newTest(true)
	for done := range 90 {
		c.Update(done, 90)
		clk.advance(10 * time.Millisecond)
	}
	c.Clear()
	c.Update(90, 90)
	c.Done()
	expect(t, out, "a batch of 0.9 s", "")
}

func TestShownAfterDelayThrottledAndDone(t *testing.T) {
	c, out, clk := newTest(true)
	c.Update(0, 1000)
	clk.advance(999 * time.Millisecond)
	c.Update(1, 1000)
	expect(t, out, "just under a second", "")
	clk.advance(time.Millisecond)
	c.Update(2, 1000)
	expect(t, out, "one second in", "publishing candidates: 2/1000\r")
	for done := 3; done < 7; done++ {
		clk.advance(20 * time.Millisecond)
		c.Update(done, 1000)
	}
	expect(t, out, "80 ms later", "")
	clk.advance(20 * time.Millisecond)
	c.Update(7, 1000)
	expect(t, out, "100 ms later", "publishing candidates: 7/1000\r")
	clk.advance(time.Millisecond)
	c.Update(1000, 1000)
	expect(t, out, "the last", "publishing candidates: 1000/1000, done.\n")
	c.Done()
	c.Clear()
	expect(t, out, "after the last", "")
}

// TestClearBeforeLine checks that a line printed while the counter shows is preceded by the
// erasing of it, and that the next update writes it again at once.
func TestClearBeforeLine(t *testing.T) {
	c, out, clk := newShown(t, true)
	c.Clear()
	c.Clear()
	expect(t, out, "cleared once shown", "\r\x1b[K")
	clk.advance(time.Millisecond)
	c.Update(4, 10)
	expect(t, out, "the update after", "publishing candidates: 4/10\r")
	c.Done()
	expect(t, out, "stopped short", "publishing candidates: 4/10, done.\n")
}

// TestNotTerminal checks that off a terminal nothing is ever erased: the hooks' line goes
// through "remote:".
func TestNotTerminal(t *testing.T) {
	c, out, clk := newShown(t, false)
	c.Clear()
	clk.advance(time.Millisecond)
	c.Update(4, 10)
	expect(t, out, "a clear off a terminal", "")
}

// TestNextWork checks that the work after one that ended waits its own delay.
func TestNextWork(t *testing.T) {
	c, out, clk := newTest(true)
	c.Update(0, 2)
	clk.advance(2 * time.Second)
	c.Update(2, 2)
	expect(t, out, "the first work", "publishing candidates: 2/2, done.\n")
	c.Update(0, 5)
	clk.advance(500 * time.Millisecond)
	c.Update(5, 5)
	expect(t, out, "a second, short, work", "")
}

func TestMinAndNil(t *testing.T) {
	var out bytes.Buffer
	c := New(&out, Options{Prefix: "skillgit: ", Label: "auditing skills", Min: 10})
	for done := range 10 {
		c.Update(done, 9)
	}
	expect(t, &out, "fewer than Min", "")
	c.Update(0, 10)
	expect(t, &out, "Min", "skillgit: auditing skills: 0/10\r")
	var none *Counter
	none.Update(1, 2)
	none.Clear()
	none.Done()
}
