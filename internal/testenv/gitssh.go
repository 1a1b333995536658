package testenv

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
)

// GitSSH is an SSH server on a loopback port that runs git-upload-pack and
// git-receive-pack, as a git host's server does, for one user and the keys it accepts.
type GitSSH struct {
	// Host and Port are where it listens.
	Host string
	Port int
	// KnownHosts is its line for a known_hosts file.
	KnownHosts string

	l      net.Listener
	wg     sync.WaitGroup
	mu     sync.Mutex
	logins []string
}

// NewGitSSH serves the repositories below base over SSH to user signed in with one of the
// authorized keys (lines of an authorized_keys file), until Close.
func NewGitSSH(base, user string, authorized ...string) (*GitSSH, error) {
	keys := map[string]bool{}
	for _, line := range authorized {
		pk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, err
		}
		keys[string(pk.Marshal())] = true
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	hostKey, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	s := &GitSSH{}
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(c ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		if c.User() != user || !keys[string(k.Marshal())] {
			return nil, fmt.Errorf("%s: key %s not accepted", c.User(), ssh.FingerprintSHA256(k))
		}
		s.mu.Lock()
		s.logins = append(s.logins, c.User()+" "+ssh.FingerprintSHA256(k))
		s.mu.Unlock()
		return nil, nil
	}}
	cfg.AddHostKey(hostKey)
	if s.l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	s.Host, s.Port = "127.0.0.1", s.l.Addr().(*net.TCPAddr).Port
	s.KnownHosts = fmt.Sprintf("[%s]:%d %s", s.Host, s.Port, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(hostKey.PublicKey()))))
	s.wg.Go(func() { s.accept(cfg, base) })
	return s, nil
}

// ServeGitSSH is NewGitSSH for a test: the server stops when t ends.
func ServeGitSSH(t testing.TB, base, user string, authorized ...string) *GitSSH {
	t.Helper()
	s, err := NewGitSSH(base, user, authorized...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// Close stops the server and waits for its connections to end.
func (s *GitSSH) Close() {
	s.l.Close()
	s.wg.Wait()
}

// Logins lists the sign-ins so far: the user and the key's fingerprint.
func (s *GitSSH) Logins() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.logins...)
}

func (s *GitSSH) accept(cfg *ssh.ServerConfig, base string) {
	for {
		c, err := s.l.Accept()
		if err != nil {
			return
		}
		s.wg.Go(func() { serveSSHConn(c, cfg, base) })
	}
}

func serveSSHConn(c net.Conn, cfg *ssh.ServerConfig, base string) {
	defer c.Close()
	conn, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		return
	}
	defer conn.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "sessions only")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			return
		}
		serveSession(ch, creqs, base)
	}
}

// serveSession runs the one git command a session asks for with exec.
func serveSession(ch ssh.Channel, reqs <-chan *ssh.Request, base string) {
	defer ch.Close()
	for req := range reqs {
		if req.Type != "exec" {
			req.Reply(req.Type == "env", nil)
			continue
		}
		cmd, err := gitCommand(req.Payload, base)
		req.Reply(err == nil, nil)
		status := uint32(1)
		if err == nil {
			cmd.Stdin, cmd.Stdout, cmd.Stderr = ch, ch, ch.Stderr()
			if cmd.Run() == nil {
				status = 0
			}
		} else {
			fmt.Fprintln(ch.Stderr(), err)
		}
		ch.CloseWrite()
		ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, status))
		return
	}
}

// gitCommand reads "git-upload-pack '/path'" (or git-receive-pack) from an exec request's
// payload and makes the command for the repository at that path below base.
func gitCommand(payload []byte, base string) (*exec.Cmd, error) {
	if len(payload) < 4 {
		return nil, errors.New("no command")
	}
	line := string(payload[4:])
	name, arg, _ := strings.Cut(line, " ")
	if name != "git-upload-pack" && name != "git-receive-pack" {
		return nil, fmt.Errorf("%s: only git-upload-pack and git-receive-pack run here", name)
	}
	path := strings.Trim(arg, "'")
	dir := filepath.Join(base, filepath.FromSlash(strings.TrimPrefix(path, "/")))
	if rel, err := filepath.Rel(base, dir); err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s: outside the served folder", path)
	}
	cmd := exec.Command("git", strings.TrimPrefix(name, "git-"), dir)
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + base, "PATH=" + os.Getenv("PATH")}
	return cmd, nil
}
