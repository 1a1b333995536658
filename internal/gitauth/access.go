// Package gitauth gives go-git's transports the credentials git users already have: for SSH
// URLs, ssh-agent, ~/.ssh/config and known_hosts; for HTTPS, the usual token variable of
// the URL's host and git's credential helpers (`git credential fill`). Every fetch, clone,
// list and push skillgit makes goes through an Access, and no secret is ever written into a
// file or shown in an error.
package gitauth

import (
	"context"
	"errors"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Access carries the credentials for one URL through the network calls of one command:
// the first call that the server refuses for want of credentials asks git's credential
// helpers, and the calls after it use what they gave. An Access is for one goroutine.
type Access struct {
	raw    string
	ep     *transport.Endpoint
	method transport.AuthMethod
	// source says where method came from, for messages: a variable's name, the helpers.
	source string
	// keys are the SSH keys offered, for messages; nil for other protocols.
	keys *keyRing
	// err is why no call can be made (an SSH setup that failed, a bad CA file).
	err error
	// ca is the certificate bundle GIT_SSL_CAINFO names, added to the system's.
	ca []byte
	// cred is what the credential helpers gave; asked is set once they were asked, and
	// why says why they gave nothing.
	cred        *credential
	asked, told bool
	why         string
	secrets     []string
}

// For prepares the credentials for rawURL: an SSH key ring, or over HTTPS the token
// variable of the URL's host, when one is set. A URL that holds credentials itself (see
// Check) is used as it is, with go-git sending them, and they are kept out of messages.
func For(rawURL string) *Access {
	a := &Access{raw: rawURL}
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil {
		return a // go-git reports the bad URL on the first call
	}
	a.ep = ep
	if ep.Password != "" {
		a.secrets = append(a.secrets, ep.Password)
	}
	if looksLikeToken(ep.User) {
		a.secrets = append(a.secrets, ep.User)
	}
	switch ep.Protocol {
	case "ssh":
		if ep.Password == "" {
			a.method, a.keys, a.err = sshAuth(ep)
		}
	case "http", "https":
		a.ca, a.err = caBundle()
		if ep.Password == "" {
			a.setToken()
		}
	}
	return a
}

// Keep returns prev when it is for the URL of next, so that a command that reaches one URL
// again and again keeps the credentials it found; else next.
func Keep(prev, next *Access) *Access {
	if prev != nil && next != nil && prev.raw == next.raw {
		return prev
	}
	return next
}

// setToken takes the token variable of the URL's host.
func (a *Access) setToken() {
	m, name, secret := tokenAuth(a.ep)
	if m == nil {
		return
	}
	a.method, a.source = m, name
	a.secrets = append(a.secrets, secret)
}

// List lists the refs of r, which reaches the URL of a, with its credentials.
func (a *Access) List(ctx context.Context, r *git.Remote, o *git.ListOptions) ([]*plumbing.Reference, error) {
	var refs []*plumbing.Reference
	err := a.Do(ctx, func(m transport.AuthMethod) error {
		o.Auth, o.CABundle = m, a.ca
		var err error
		refs, err = r.ListContext(ctx, o)
		return err
	})
	return refs, err
}

// Fetch fetches from r, which reaches the URL of a, with its credentials.
func (a *Access) Fetch(ctx context.Context, r *git.Remote, o *git.FetchOptions) error {
	return a.Do(ctx, func(m transport.AuthMethod) error {
		o.Auth, o.CABundle = m, a.ca
		return r.FetchContext(ctx, o)
	})
}

// Push pushes to r, which reaches the URL of a, with its credentials.
func (a *Access) Push(ctx context.Context, r *git.Remote, o *git.PushOptions) error {
	return a.Do(ctx, func(m transport.AuthMethod) error {
		o.Auth, o.CABundle = m, a.ca
		return r.PushContext(ctx, o)
	})
}

// Do runs op, one network call of go-git, with the credentials of the URL. When an HTTP
// server refuses it for want of credentials, git's credential helpers are asked once and
// op runs again with what they gave; the helpers then hear whether it worked (approve) or
// not (reject). The error says what to set when credentials were missing or refused, and
// never holds a secret.
func (a *Access) Do(ctx context.Context, op func(transport.AuthMethod) error) error {
	if a.err != nil {
		return a.err
	}
	err := op(a.method)
	if a.canAsk(err) {
		a.asked = true
		c, why := fill(ctx, a.ep)
		if c == nil {
			a.why = why
		} else {
			a.cred, a.method, a.source = c, c.method(), "git's credential helper"
			a.secrets = append(a.secrets, c.password)
			err = op(a.method)
		}
	}
	a.tell(ctx, err)
	return a.explain(err)
}

// canAsk reports whether err calls for asking the credential helpers: an HTTP server
// refused the call, and they were not asked yet. A server that answers an anonymous call
// with "not found" may hide a private repository, as GitHub does.
func (a *Access) canAsk(err error) bool {
	if a.asked || a.ep == nil || (a.ep.Protocol != "http" && a.ep.Protocol != "https") || a.ep.Password != "" {
		return false
	}
	return refused(err) || a.method == nil && errors.Is(err, transport.ErrRepositoryNotFound)
}

// refused reports whether the server refused the credentials, or asked for some.
func refused(err error) bool {
	return errors.Is(err, transport.ErrAuthenticationRequired) || errors.Is(err, transport.ErrAuthorizationFailed)
}

// tell lets the credential helpers know, once, whether what they gave worked.
func (a *Access) tell(ctx context.Context, err error) {
	if a.cred == nil || a.told {
		return
	}
	switch {
	case refused(err):
		a.cred.tell(ctx, "reject")
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate), errors.Is(err, transport.ErrEmptyRemoteRepository):
		a.cred.tell(ctx, "approve")
	default:
		return
	}
	a.told = true
}

// explain adds to a refusal what to do, and keeps the secrets out of err's text.
func (a *Access) explain(err error) error {
	if err == nil {
		return nil
	}
	note := ""
	switch {
	case refused(err) || a.asked && a.cred == nil && errors.Is(err, transport.ErrRepositoryNotFound):
		note = a.httpAdvice(err)
	case a.keys != nil && isSSHAuthFailure(err):
		note = a.keys.advice(a.ep)
	}
	if note == "" && !a.leaks(err.Error()) {
		return err
	}
	return &redactedError{err: err, note: note, secrets: a.secrets}
}

// httpAdvice says which credentials were tried and what to set, after err.
func (a *Access) httpAdvice(err error) string {
	switch {
	case a.ep != nil && a.ep.Password != "":
		return "the server refused the credentials in the URL; remove them from it and " + advice(a.ep)
	case a.cred != nil:
		return "the server refused the credentials git's credential helper gave for " + a.hostLabel() + ", and the helper was told to forget them; store ones with access to this repository"
	}
	tried := ""
	if a.source != "" {
		tried = "the server refused the token of " + a.source + "; "
	}
	if a.why != "" {
		tried += "git's credential helpers gave nothing (" + a.why + "); "
	}
	need := "the repository needs credentials: "
	if !refused(err) {
		need = "no such repository, or a private one that needs credentials: "
	}
	return tried + need + advice(a.ep)
}

// hostLabel is the URL's host, as messages name it.
func (a *Access) hostLabel() string {
	if a.ep == nil {
		return "the URL"
	}
	return hostPort(a.ep)
}

// leaks reports whether text holds one of the secrets of a.
func (a *Access) leaks(text string) bool {
	for _, s := range a.secrets {
		if s != "" && strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// redactedError is an error of go-git with a note on what to do, shown with every secret
// of the Access replaced by ***.
type redactedError struct {
	err     error
	note    string
	secrets []string
}

func (e *redactedError) Error() string {
	msg := strings.TrimSpace(e.err.Error())
	if e.note != "" {
		msg += "; " + e.note
	}
	for _, s := range e.secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	return msg
}

func (e *redactedError) Unwrap() error { return e.err }
