package lifecycle

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// AuthorEnv names the environment variable that sets who acts, as "Name <email>", for agents
// and CI that have no git identity of their own.
const AuthorEnv = "SKILLGIT_AUTHOR"

// ActOptions says who performs a lifecycle action and through what.
type ActOptions struct {
	// Author is "Name <email>"; empty takes SKILLGIT_AUTHOR, then the git identity.
	Author string
	// Via names the channel the action came through, such as "mcp"; empty for the CLI.
	Via string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Unattended says no person is behind the action, as for an agent on the MCP server: it
	// may then publish only what the mode would publish on its own.
	Unattended bool
}

func (o ActOptions) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

// Actor resolves who acts, with a warning when the identity had to be guessed.
func (r *Repo) Actor(o ActOptions) (object.Signature, string, error) {
	spec, from := o.Author, "--author"
	if spec == "" {
		spec, from = strings.TrimSpace(o.getenv(AuthorEnv)), AuthorEnv
	}
	if spec == "" {
		return r.git.Identity()
	}
	name, email, err := ParseActor(spec)
	if err != nil {
		return object.Signature{}, "", fmt.Errorf("%s: %w", from, err)
	}
	return object.Signature{Name: name, Email: email, When: time.Now()}, "", nil
}

// ParseActor splits "Name <email>" and refuses what git could not record faithfully.
func ParseActor(s string) (name, email string, err error) {
	open, end := strings.LastIndexByte(s, '<'), strings.LastIndexByte(s, '>')
	if open < 0 || end != len(s)-1 || end < open {
		return "", "", fmt.Errorf("%q is not of the form \"Name <email>\"", s)
	}
	name, email = strings.TrimSpace(s[:open]), s[open+1:end]
	switch {
	case name == "" || email == "":
		return "", "", fmt.Errorf("%q needs both a name and an email", s)
	case strings.ContainsAny(name, "<>\n\r\x00") || strings.ContainsAny(email, "<> \n\r\x00"):
		return "", "", fmt.Errorf("%q has characters a git identity cannot hold", s)
	case len(s) > 256:
		return "", "", fmt.Errorf("identity is %d bytes; at most 256", len(s))
	}
	return name, email, nil
}

func actorOf(sig object.Signature) Actor { return Actor{Name: sig.Name, Email: sig.Email} }

// actOn resolves who acts, as the transaction they act in, and reads the candidate they act
// on, which must still be open.
func (r *Repo) actOn(id string, o ActOptions) (*tx, string, *ledger.Chain, *Candidate, error) {
	sig, warn, err := r.Actor(o)
	if err != nil {
		return nil, "", nil, nil, err
	}
	ch, c, err := r.book().OpenCandidate(id)
	return &tx{r: r, sig: sig}, warn, ch, c, err
}
