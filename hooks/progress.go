package hooks

import (
	"fmt"
	"io"
	"time"
)

// ProgressMin is how many skills an audit must have for its progress to be shown: fewer are
// audited too fast to need it.
const ProgressMin = 10

// progressEvery is how often the counter is written at most, besides its first and last.
const progressEvery = 100 * time.Millisecond

// Progress writes how far an audit has got, as git writes its own progress: one line,
// "auditing skills: 7/18", rewritten in place after a carriage return and ended with
// ", done." and a newline. So it reads the same on a terminal, after "remote:" in the output
// of `git push` (which relays a server hook's) and in that of `skillgit push`. An audit of
// fewer than ProgressMin skills writes nothing.
type Progress struct {
	w      io.Writer
	prefix string
	last   time.Time
}

// NewProgress is a Progress writing to w, each line starting with prefix.
func NewProgress(w io.Writer, prefix string) *Progress { return &Progress{w: w, prefix: prefix} }

// Update writes that done of total skills are audited; it is a auditrun.Progress.
func (p *Progress) Update(done, total int) {
	if total < ProgressMin {
		return
	}
	now := time.Now()
	if done > 0 && done < total && now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	end := "\r"
	if done == total {
		end = ", done.\n"
	}
	fmt.Fprintf(p.w, "%sauditing skills: %d/%d%s", p.prefix, done, total, end)
}
