package remotes

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
)

// Bounds on what a server says during a push that skillgit keeps to show.
const (
	maxServerBytes = 64 << 10
	maxServerLines = 200
)

// serverRefusalMark starts the report of a skillgit pre-receive hook that refuses a push.
const serverRefusalMark = "skillgit: push refused"

// ServerRefusedError reports a push that the server's hooks declined: nothing was pushed.
// Lines are what the server said while it refused (git prints them after "remote:").
type ServerRefusedError struct {
	Remote, URL string
	// Lines are the server's messages, control characters replaced.
	Lines []string
	// Updates are the ref updates the push would have made, deletions left out.
	Updates []gitstore.RefUpdate
	// Err is the refusal as the git protocol reports it.
	Err error
	// Shown means the lines went to the progress writer as the server sent them.
	Shown bool
}

// Error quotes the server, unless its lines were shown already, and says what to do next.
func (e *ServerRefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "push to %s (%s) %s by the server, nothing was pushed: %v", e.Remote, e.URL, lifecycle.ErrRefused, e.Err)
	switch {
	case len(e.Lines) > 0 && e.Shown:
		b.WriteString("; the server said why above (remote: ...); ")
	case len(e.Lines) > 0:
		b.WriteString("; the server said:")
		for _, l := range e.Lines {
			b.WriteString("\nremote: " + l)
		}
		b.WriteString("\n")
	default:
		b.WriteString("; ")
	}
	b.WriteString(e.advice())
	return b.String()
}

// Unwrap makes the error lifecycle.ErrRefused.
func (e *ServerRefusedError) Unwrap() error { return lifecycle.ErrRefused }

// SkillgitAudit reports whether the refusal comes from skillgit's pre-receive audit.
func (e *ServerRefusedError) SkillgitAudit() bool {
	for _, l := range e.Lines {
		if strings.HasPrefix(l, serverRefusalMark) {
			return true
		}
	}
	return false
}

// advice says how to get the push through.
func (e *ServerRefusedError) advice() string {
	if !e.SkillgitAudit() {
		return fmt.Sprintf("the server's hooks declined the push; fix what they name (or ask the server's maintainers), then run `skillgit push %s` again", e.Remote)
	}
	fix := (&PushAuditError{Updates: e.Updates}).advice()
	return fmt.Sprintf("the server's audit refused it, under the policy of the server's branches: %s, then run `skillgit push %s` again",
		fix, e.Remote)
}

// hookDeclined reports a push error that says a server hook declined the update.
func hookDeclined(err error) bool { return strings.Contains(err.Error(), "hook declined") }

// serverLines keeps, within bounds, what a server says during a push, and passes it on to a
// progress writer when there is one.
type serverLines struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	live *live
}

func newServerLines(progress io.Writer) *serverLines {
	s := &serverLines{}
	if progress != nil {
		s.live = &live{w: progress}
	}
	return s
}

// Write keeps p, up to maxServerBytes in all, and passes it on.
func (s *serverLines) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if room := maxServerBytes - s.buf.Len(); room > 0 {
		s.buf.Write(p[:min(len(p), room)])
	}
	if s.live != nil {
		s.live.Write(p)
	}
	return len(p), nil
}

// shown reports whether what the server said was passed on as it came.
func (s *serverLines) shown() bool { return s.live != nil }

// maxLiveLine bounds a line a server sends without ending it, before it is passed on anyway.
const maxLiveLine = 4 << 10

// live passes what a server says on to a progress writer as git shows it: each line, or
// counter rewritten in place with a carriage return, after "remote: ", with control characters
// replaced so that a server cannot drive the terminal. A line is passed on once it ends.
type live struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

// liveLines is a live writer to progress, or nil when progress is nil.
func liveLines(progress io.Writer) io.Writer {
	if progress == nil {
		return nil
	}
	return &live{w: progress}
}

// Write passes on every line p ends.
func (l *live) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, p...)
	for {
		i := bytes.IndexAny(l.pending, "\r\n")
		if i < 0 && len(l.pending) > maxLiveLine {
			i = len(l.pending)
			l.pending = append(l.pending, '\n')
		}
		if i < 0 {
			return len(p), nil
		}
		if line := strings.TrimRightFunc(visibleLine(string(l.pending[:i])), unicode.IsSpace); line != "" {
			fmt.Fprintf(l.w, "remote: %s%c", line, l.pending[i])
		}
		l.pending = l.pending[i+1:]
	}
}

// lines returns the complete messages the server sent: for a line rewritten in place with
// carriage returns (a progress counter), its last version; control characters are replaced
// so that a server cannot drive the terminal.
func (s *serverLines) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, l := range strings.Split(s.buf.String(), "\n") {
		if i := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); i >= 0 {
			l = l[i+1:]
		}
		l = strings.TrimRightFunc(visibleLine(l), unicode.IsSpace)
		if l == "" {
			continue
		}
		if len(out) == maxServerLines {
			return append(out, "(more lines left out)")
		}
		out = append(out, l)
	}
	return out
}

// visibleLine replaces control characters, bidirectional controls and tag characters.
func visibleLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || (r >= 0xE0000 && r <= 0xE007F) {
			return '\uFFFD'
		}
		return r
	}, s)
}
