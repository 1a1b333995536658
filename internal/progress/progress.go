// Package progress writes how far a long piece of work has got, as git writes its own
// progress: one line, "auditing skills: 7/18", rewritten in place after a carriage return at
// most every 100 ms, and ended with ", done." and a newline. The git hooks write it through
// "remote:" too, so a line uses no escape sequence unless the writer is known to be a
// terminal (Options.Terminal), where Clear may erase it before other output.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Every is how often a line is rewritten at most, besides its first and last.
const Every = 100 * time.Millisecond

// erase moves to the start of the line and erases it, on a terminal.
const erase = "\r\x1b[K"

// Options say what a Counter writes and when.
type Options struct {
	// Prefix starts every line, such as "skillgit: ".
	Prefix string
	// Label names the work, such as "auditing skills".
	Label string
	// Min is how many items the work must have to be shown: fewer go too fast to need it.
	Min int
	// Delay is how long the work must have run before anything is shown, so that work that
	// ends sooner leaves no trace.
	Delay time.Duration
	// Terminal says that the writer is a terminal, on which Clear erases the line.
	Terminal bool
	// Now reads the clock; nil means time.Now.
	Now func() time.Time
}

// Counter writes the progress line of one piece of work after another. It is safe for
// concurrent use, and a nil Counter writes nothing.
type Counter struct {
	w  io.Writer
	o  Options
	mu sync.Mutex
	// running says that a piece of work has begun and not ended; start is when it began.
	running bool
	start   time.Time
	// onScreen says that a line is shown and not ended or erased; drawn is when it was
	// written last.
	onScreen    bool
	drawn       time.Time
	done, total int
}

// New is a Counter writing to w.
func New(w io.Writer, o Options) *Counter {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Counter{w: w, o: o}
}

// Update says that done of total items are done. The first Update after New, or after the
// last line ended, begins a piece of work; one with done equal to total ends it, with
// ", done." when its line was shown or is due.
func (c *Counter) Update(done, total int) {
	if c == nil || total < c.o.Min {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.o.Now()
	if !c.running {
		c.running, c.start = true, now
	}
	c.done, c.total = done, total
	last := done >= total
	if last {
		c.running = false
	}
	switch {
	case now.Sub(c.start) < c.o.Delay:
		// Too soon: work that ends now was never shown.
	case last:
		c.write(", done.\n")
	case !c.onScreen || now.Sub(c.drawn) >= Every:
		c.onScreen, c.drawn = true, now
		c.write("\r")
	}
}

// Clear erases the line on a terminal, so that other output starts on an empty line; the
// next Update writes it again. Elsewhere it does nothing.
func (c *Counter) Clear() {
	if c == nil || !c.o.Terminal {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.onScreen {
		c.onScreen = false
		fmt.Fprint(c.w, erase)
	}
}

// Done ends the work where it stands, as when it stopped short of its total: a line on the
// screen is ended with ", done.".
func (c *Counter) Done() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = false
	if c.onScreen {
		c.write(", done.\n")
	}
}

// write writes the line as it stands, followed by end; a line ended with a newline is no
// longer on the screen.
func (c *Counter) write(end string) {
	if end != "\r" {
		c.onScreen = false
	}
	fmt.Fprintf(c.w, "%s%s: %d/%d%s", c.o.Prefix, c.o.Label, c.done, c.total, end)
}
