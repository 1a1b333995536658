package codeflow

import "errors"

// Lang is a language codeflow reads.
type Lang uint8

// The languages read.
const (
	Python Lang = iota + 1
	JavaScript
)

// ErrUnavailable is returned when this build has no parsers (cgo is off).
var ErrUnavailable = errors.New("codeflow: no parsers in this build (built without cgo)")

// errTooCostly is a parse stopped at its budget: code the parser recovers from
// errors in at great cost, as hostile code can be made to be.
var errTooCostly = errors.New("codeflow: code too costly to parse")

// Parsing is bounded in processor time: a source may take budgetBase nanoseconds and
// budgetPerByte per byte, a megabyte a second, five to ten times what real code takes.
// Only code built to stall the parser's error recovery reaches the bound, which on a
// few hundred kilobytes would otherwise take minutes.
const (
	budgetBase    = 250_000_000
	budgetPerByte = 1000
)

// Available reports whether this build parses code; without cgo it does not.
func Available() bool { return available }

// Unit is one piece of code of a skill: a script, a fenced block or a
// notebook cell. Units of one skill are read together, so a function
// defined in one is followed when another calls it.
type Unit struct {
	Lang Lang
	Code []byte
}

// Kind says what a Flow is.
type Kind uint8

// The kinds of flow.
const (
	// Exfiltration: a secret, the environment or a credential file reaches the network.
	Exfiltration Kind = iota + 1
	// RemoteExec: content fetched from the network runs as code, or is saved to a file this
	// unit then runs.
	RemoteExec
	// Command: a command the program builds from pieces and runs; Text holds it.
	Command
	// Download: content fetched from the network is saved to the path in Text.
	Download
	// Unread: the unit could not be parsed within its budget; it is read as text only.
	Unread
)

// Flow is one thing found: where it happens (the unit and the byte range of
// the call that sends, runs or saves) and what it carries.
type Flow struct {
	Kind       Kind
	Unit       int
	Start, End int
	// From describes the source: `os.environ["AWS_SECRET_ACCESS_KEY"]`, "the whole
	// environment", "~/.ssh/id_rsa", or "content fetched from https://host/...".
	From string
	// Secret is the name of the first environment variable named like a secret that is
	// sent, and Secrets all of them (up to eight).
	Secret  string
	Secrets []string
	// Whole is set when the source is the whole environment or a credential file.
	Whole bool
	// Channel is how it leaves: "HTTP", "DNS", "socket", "mail", "FTP", "browser" or "shell".
	Channel string
	// Host is where it goes, when the code says so.
	Host string
	// Text is the command built (Command) or the path saved to (Download).
	Text string
	// Hidden is set on a Command whose text the code decoded, reversed or spelled in
	// character codes: a way of writing it that only hides it.
	Hidden bool
}

// Analyze reads the units of one skill and returns what flows through them.
// secretFiles are the names of files that other code of the skill (its shell
// scripts) writes the environment or a secret into: reading one is reading that.
func Analyze(units []Unit, secretFiles ...string) ([]Flow, error) {
	if !available {
		return nil, ErrUnavailable
	}
	in := newInterp(units)
	in.secretFiles = secretFiles
	if err := in.load(); err != nil {
		return nil, err
	}
	in.run()
	return in.out, nil
}
