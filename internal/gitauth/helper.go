package gitauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
)

// maxHelperOutput bounds what a credential helper may answer.
const maxHelperOutput = 64 << 10

// credential is what `git credential fill` answered for a URL: the lines to give back to
// `git credential approve` or `reject`, and the user name and password among them.
type credential struct {
	lines          []string
	user, password string
}

// method is the credential as go-git sends it.
func (c *credential) method() transport.AuthMethod {
	return &http.BasicAuth{Username: c.user, Password: c.password}
}

// credentialRequest describes the endpoint as git's credential helpers read it; an
// endpoint with a line break or NUL in it is refused, as git refuses it.
func credentialRequest(ep *transport.Endpoint) (string, error) {
	host := ep.Host
	if ep.Port != 0 {
		host += ":" + strconv.Itoa(ep.Port)
	}
	fields := [][2]string{{"protocol", ep.Protocol}, {"host", host}, {"path", strings.TrimPrefix(ep.Path, "/")}}
	if ep.User != "" {
		fields = append(fields, [2]string{"username", ep.User})
	}
	var b strings.Builder
	for _, f := range fields {
		if strings.ContainsAny(f[1], "\n\r\x00") {
			return "", fmt.Errorf("the URL's %s holds a line break or NUL, which git's credential helpers cannot be asked about", f[0])
		}
		fmt.Fprintf(&b, "%s=%s\n", f[0], f[1])
	}
	b.WriteString("\n")
	return b.String(), nil
}

// fill asks git's credential helpers for the endpoint's credentials, with prompts on the
// terminal turned off (an askpass program still runs). It returns nil when none answered,
// with why when something failed (git is not there, a helper broke).
func fill(ctx context.Context, ep *transport.Endpoint) (*credential, string) {
	req, err := credentialRequest(ep)
	if err != nil {
		return nil, err.Error()
	}
	out, err := runCredential(ctx, "fill", req)
	switch {
	case err != nil && strings.Contains(err.Error(), "terminal prompts disabled"):
		return nil, "" // no helper answered: git would have prompted
	case err != nil:
		return nil, err.Error()
	}
	c := &credential{}
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		c.lines = append(c.lines, line)
		switch k {
		case "username":
			c.user = v
		case "password":
			c.password = v
		}
	}
	if c.password == "" {
		return nil, "git's credential helpers gave no password"
	}
	return c, ""
}

// tell gives the credential back to git's helpers with approve (it worked: store it) or
// reject (it was refused: forget it). Its errors change nothing that skillgit does.
func (c *credential) tell(ctx context.Context, action string) {
	_, _ = runCredential(ctx, action, strings.Join(c.lines, "\n")+"\n\n")
}

// runCredential runs `git credential ACTION` with input on its standard input and returns
// what it printed. Its error holds git's last line of errors, never its output.
func runCredential(ctx context.Context, action, input string) (string, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return "", errors.New("git is not installed, so its credential helpers cannot be asked")
	}
	cmd := exec.CommandContext(ctx, git, "credential", action)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	cmd.Stdin = strings.NewReader(input)
	var out, errOut boundedBuffer
	out.limit, errOut.limit = maxHelperOutput, maxHelperOutput
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git credential %s: %s", action, lastLine(errOut.String(), err))
	}
	if out.over {
		return "", fmt.Errorf("git credential %s: the answer is larger than %d KiB", action, maxHelperOutput>>10)
	}
	return out.String(), nil
}

// lastLine is the last line git wrote to its errors, or err when it wrote none.
func lastLine(stderr string, err error) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

// boundedBuffer keeps the first limit bytes written to it and drops the rest.
type boundedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
