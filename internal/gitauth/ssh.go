package gitauth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/transport"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// maxKeyFile bounds the read of a private key file.
const maxKeyFile = 1 << 20

// defaultIdentities are the key files ssh tries when the configuration names none.
var defaultIdentities = []string{"id_rsa", "id_ecdsa", "id_ed25519"}

// sshAuth is the SSH credential for the endpoint, as ssh would make it from ~/.ssh/config:
// the user (of the URL, else User, else the local account), the keys of ssh-agent (or of
// IdentityAgent) and of the IdentityFile keys (else ssh's default ones), and the server's
// key checked against known_hosts (UserKnownHostsFile and GlobalKnownHostsFile, or the
// files SSH_KNOWN_HOSTS lists). It also returns the key ring, for messages.
func sshAuth(ep *transport.Endpoint) (transport.AuthMethod, *keyRing, error) {
	installSSHConfig()
	cfg := readSSHConfig()
	alias := ep.Host
	user := ep.User
	if user == "" {
		user = cfg.get(alias, "User")
	}
	if user == "" {
		user = localUser()
	}
	keys := newKeyRing(cfg, alias, user)
	db, err := knownHostsDB(cfg, alias, user)
	if err != nil {
		return nil, keys, err
	}
	addr := sshAddr(cfg, ep)
	return &gitssh.PublicKeysCallback{User: user, Callback: keys.signers, HostKeyCallbackHelper: gitssh.HostKeyCallbackHelper{
		HostKeyCallback:   explainHostKey(db.HostKeyCallback(), addr),
		HostKeyAlgorithms: db.HostKeyAlgorithms(addr),
	}}, keys, nil
}

// sshAddr is the address go-git connects to for ep: HostName and Port of the configuration
// (see goGitSSHConfig), else the URL's host and port.
func sshAddr(cfg sshConfig, ep *transport.Endpoint) string {
	host, port := ep.Host, ep.Port
	if h := (goGitSSHConfig{}).Get(ep.Host, "HostName"); h != "" {
		host = h
		if p, err := strconv.Atoi(cfg.get(ep.Host, "Port")); err == nil {
			port = p
		}
	}
	if port <= 0 {
		port = 22
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(port))
}

// knownHostsDB reads the known_hosts files that apply to alias.
func knownHostsDB(cfg sshConfig, alias, user string) (interface {
	HostKeyCallback() ssh.HostKeyCallback
	HostKeyAlgorithms(string) []string
}, error) {
	files := filepath.SplitList(os.Getenv("SSH_KNOWN_HOSTS"))
	if len(files) == 0 {
		for _, key := range []string{"UserKnownHostsFile", "GlobalKnownHostsFile"} {
			for _, v := range cfg.getAll(alias, key) {
				for _, f := range strings.Fields(v) {
					files = append(files, expandPath(f, alias, user))
				}
			}
		}
	}
	if len(files) == 0 {
		files = []string{filepath.Join(homeDir(), ".ssh", "known_hosts"), "/etc/ssh/ssh_known_hosts"}
	}
	var found []string
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s: no known_hosts file (%s), so the server's key cannot be checked; connect once with `ssh %s` and accept its key, or add it with `ssh-keyscan`",
			alias, strings.Join(files, ", "), alias)
	}
	return gitssh.NewKnownHostsDb(found...)
}

// explainHostKey makes the errors of a known_hosts check say what they mean and what to do.
func explainHostKey(check ssh.HostKeyCallback, addr string) ssh.HostKeyCallback {
	return func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		err := check(hostname, remote, key)
		var ke *knownhosts.KeyError
		switch {
		case err == nil || !errors.As(err, &ke):
			return err
		case len(ke.Want) == 0:
			return fmt.Errorf("%s: the server's host key (%s %s) is not in known_hosts; check it and add it (connect once with `ssh`, or `ssh-keyscan`): %w",
				addr, key.Type(), ssh.FingerprintSHA256(key), err)
		}
		return fmt.Errorf("%s: the server's host key (%s %s) differs from the one known_hosts holds for it (%s line %d): someone may be intercepting the connection, or the server's key changed; nothing was sent: %w",
			addr, key.Type(), ssh.FingerprintSHA256(key), ke.Want[0].Filename, ke.Want[0].Line, err)
	}
}

// keyRing gathers the keys ssh would offer a host: ssh-agent's, then the identity files'.
type keyRing struct {
	socket string
	files  []string
	only   bool
	// once gathers the keys; encrypted lists the identity files a passphrase protects.
	once      sync.Once
	keys      []ssh.Signer
	encrypted []string
	agentErr  error
}

func newKeyRing(cfg sshConfig, alias, user string) *keyRing {
	k := &keyRing{socket: os.Getenv("SSH_AUTH_SOCK"), only: strings.EqualFold(cfg.get(alias, "IdentitiesOnly"), "yes")}
	switch a := cfg.get(alias, "IdentityAgent"); {
	case strings.EqualFold(a, "none"):
		k.socket = ""
	case strings.HasPrefix(a, "$"):
		k.socket = os.Getenv(a[1:])
	case a != "" && a != "SSH_AUTH_SOCK":
		k.socket = expandPath(a, alias, user)
	}
	for _, f := range cfg.getAll(alias, "IdentityFile") {
		k.files = append(k.files, expandPath(f, alias, user))
	}
	if len(k.files) == 0 {
		for _, f := range defaultIdentities {
			k.files = append(k.files, filepath.Join(homeDir(), ".ssh", f))
		}
	}
	return k
}

// signers returns the keys, read once: go-git asks for them at every connection.
func (k *keyRing) signers() ([]ssh.Signer, error) {
	k.once.Do(func() {
		fileKeys, pubs := k.readFiles()
		for _, s := range k.agentKeys() {
			if !k.only || pubs[string(s.PublicKey().Marshal())] {
				k.keys = append(k.keys, s)
			}
		}
		k.keys = append(k.keys, fileKeys...)
	})
	return k.keys, nil
}

// agentKeys lists the keys of the agent at k.socket.
func (k *keyRing) agentKeys() []ssh.Signer {
	if k.socket == "" {
		return nil
	}
	keys, err := agents.signers(k.socket)
	if err != nil {
		k.agentErr = err
	}
	return keys
}

// agents holds one client of each ssh-agent for the whole process: the signatures of every
// connection go through it, one at a time, and a command that connects again and again (a
// watch) opens no more connections to the agent.
var agents = agentClients{clients: map[string]agentClient{}}

type agentClients struct {
	mu      sync.Mutex
	clients map[string]agentClient
}

type agentClient struct {
	conn net.Conn
	agent.ExtendedAgent
}

// signers lists the keys of the agent at socket, connecting once more when the connection
// kept from before broke (the agent restarted).
func (c *agentClients) signers(socket string) ([]ssh.Signer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range 2 {
		ac, ok := c.clients[socket]
		if !ok {
			conn, err := net.Dial("unix", socket)
			if err != nil {
				return nil, err
			}
			ac = agentClient{conn, agent.NewClient(conn)}
			c.clients[socket] = ac
		}
		keys, err := ac.Signers()
		if err == nil {
			return keys, nil
		}
		ac.conn.Close()
		delete(c.clients, socket)
	}
	return nil, fmt.Errorf("ssh-agent at %s does not answer", socket)
}

// readFiles reads the identity files: the keys it can use, and the public keys of all
// of them (from KEY.pub where a passphrase protects KEY), for IdentitiesOnly.
func (k *keyRing) readFiles() ([]ssh.Signer, map[string]bool) {
	var keys []ssh.Signer
	pubs := map[string]bool{}
	for _, f := range k.files {
		if pub, err := readBounded(f + ".pub"); err == nil {
			if pk, _, _, _, err := ssh.ParseAuthorizedKey(pub); err == nil {
				pubs[string(pk.Marshal())] = true
			}
		}
		data, err := readBounded(f)
		if err != nil {
			continue
		}
		s, err := ssh.ParsePrivateKey(data)
		var missing *ssh.PassphraseMissingError
		switch {
		case errors.As(err, &missing):
			k.encrypted = append(k.encrypted, f)
		case err == nil:
			keys = append(keys, s)
			pubs[string(s.PublicKey().Marshal())] = true
		}
	}
	return keys, pubs
}

// advice says which keys were offered and what to do when the server took none.
func (k *keyRing) advice(ep *transport.Endpoint) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the server took none of the %d keys offered", len(k.keys))
	switch {
	case k.socket == "":
		b.WriteString(" (no ssh-agent: SSH_AUTH_SOCK is not set)")
	case k.agentErr != nil:
		fmt.Fprintf(&b, " (ssh-agent at %s: %v)", k.socket, k.agentErr)
	}
	if len(k.encrypted) > 0 {
		fmt.Fprintf(&b, "; %s needs its passphrase: add it to ssh-agent with `ssh-add %s`", strings.Join(k.encrypted, ", "), k.encrypted[0])
	}
	fmt.Fprintf(&b, "; add your key with `ssh-add`, or name it with IdentityFile under `Host %s` in ~/.ssh/config", ep.Host)
	return b.String()
}

// isSSHAuthFailure reports whether err is an SSH server's refusal of every key.
func isSSHAuthFailure(err error) bool {
	return strings.Contains(err.Error(), "unable to authenticate")
}

// readBounded reads a small file, a key.
func readBounded(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, io.LimitReader(f, maxKeyFile)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
