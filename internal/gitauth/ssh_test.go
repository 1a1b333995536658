package gitauth

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/skillgit/skillgit/internal/testenv"
)

// sshServer serves a bare repository skills.git over SSH to user git with the key pub, in
// a hermetic home with no ssh-agent, whose known_hosts holds knownHosts, or the server's
// own line when knownHosts is empty.
func sshServer(t *testing.T, pub, knownHosts string) (*testenv.GitSSH, string) {
	t.Helper()
	home := testenv.Hermetic(t, map[string]string{"SSH_AUTH_SOCK": "", "SSH_KNOWN_HOSTS": ""})
	base := servedRepository(t)
	srv := testenv.ServeGitSSH(t, base, "git", pub)
	if knownHosts == "" {
		knownHosts = srv.KnownHosts
	}
	testenv.WriteFiles(t, home, map[string]string{".ssh/known_hosts": knownHosts + "\n"})
	return srv, home
}

// installKey copies the private key file key into ~/.ssh/name.
func installKey(t *testing.T, home, key, name string) {
	t.Helper()
	data, err := os.ReadFile(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSSHConfig(t *testing.T) {
	key, pub := testenv.SSHKey(t, "deploy")
	srv, home := sshServer(t, pub, "")
	installKey(t, home, key, "deploy_key")
	testenv.WriteFiles(t, home, map[string]string{".ssh/config": fmt.Sprintf(
		"Host skills-host\n  HostName %s\n  Port %d\n  User git\n  IdentityFile ~/.ssh/deploy_key\n", srv.Host, srv.Port)})
	url := "skills-host:skills.git"
	if err := listRefs(For(url), url); err != nil {
		t.Fatalf("List over ssh with ~/.ssh/config: %v", err)
	}
	if got := srv.Logins(); len(got) != 1 || !strings.HasPrefix(got[0], "git ") {
		t.Errorf("the server's sign-ins: %q, want one of git", got)
	}
}

func TestSSHDefaultKeyAndPortFromConfig(t *testing.T) {
	key, pub := testenv.SSHKey(t, "default")
	srv, home := sshServer(t, pub, "")
	installKey(t, home, key, "id_ed25519")
	testenv.WriteFiles(t, home, map[string]string{".ssh/config": fmt.Sprintf("Host %s\n  Port %d\n", srv.Host, srv.Port)})
	url := "git@" + srv.Host + ":skills.git"
	if err := listRefs(For(url), url); err != nil {
		t.Fatalf("List over ssh with ~/.ssh/id_ed25519: %v", err)
	}
}

func TestSSHAgent(t *testing.T) {
	key, pub := testenv.SSHKey(t, "agent-held")
	srv, _ := sshServer(t, pub, "")
	t.Setenv("SSH_AUTH_SOCK", testenv.SSHAgent(t, key))
	if err := os.Remove(key); err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("ssh://git@%s:%d/skills.git", srv.Host, srv.Port)
	if err := listRefs(For(url), url); err != nil {
		t.Fatalf("List over ssh with the agent's key: %v", err)
	}
	want := fingerprint(t, pub)
	if got := srv.Logins(); !slices.Contains(got, "git "+want) {
		t.Errorf("the server's sign-ins: %q, want the agent's key %s", got, want)
	}
}

func TestSSHKeyRefused(t *testing.T) {
	_, pub := testenv.SSHKey(t, "accepted")
	other, _ := testenv.SSHKey(t, "other")
	srv, home := sshServer(t, pub, "")
	installKey(t, home, other, "id_ed25519")
	encrypted, _ := testenv.SSHKey(t, "locked")
	sshKeygen(t, "-q", "-p", "-P", "", "-N", "a passphrase", "-f", encrypted)
	installKey(t, home, encrypted, "id_rsa")
	url := fmt.Sprintf("ssh://git@%s:%d/skills.git", srv.Host, srv.Port)
	err := listRefs(For(url), url)
	if err == nil {
		t.Fatal("List with a key the server does not take worked")
	}
	for _, want := range []string{"the server took none of the 1 keys offered", "no ssh-agent", "id_rsa needs its passphrase", "ssh-add"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}

func TestSSHHostKeyChecked(t *testing.T) {
	key, pub := testenv.SSHKey(t, "deploy")
	_, otherPub := testenv.SSHKey(t, "not-the-server")
	tests := []struct {
		name, want string
		known      func(port int) string
	}{
		{"unknown", "is not in known_hosts", func(int) string { return "[other.example]:22 " + otherPub }},
		{"changed", "differs from the one known_hosts holds", func(port int) string { return fmt.Sprintf("[127.0.0.1]:%d %s", port, otherPub) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, home := sshServer(t, pub, "# replaced below")
			testenv.WriteFiles(t, home, map[string]string{".ssh/known_hosts": tt.known(srv.Port) + "\n"})
			installKey(t, home, key, "id_ed25519")
			url := fmt.Sprintf("ssh://git@%s:%d/skills.git", srv.Host, srv.Port)
			err := listRefs(For(url), url)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("List: %v, want an error that says %q", err, tt.want)
			}
			if got := srv.Logins(); len(got) != 0 {
				t.Errorf("signed in to a server whose key was not checked: %q", got)
			}
		})
	}
}

func TestSSHNoKnownHosts(t *testing.T) {
	_, pub := testenv.SSHKey(t, "deploy")
	srv, home := sshServer(t, pub, "")
	if err := os.Remove(filepath.Join(home, ".ssh", "known_hosts")); err != nil {
		t.Fatal(err)
	}
	// Not the machine's /etc/ssh/ssh_known_hosts, which may exist.
	testenv.WriteFiles(t, home, map[string]string{".ssh/config": "Host *\n  GlobalKnownHostsFile ~/.ssh/global_known_hosts\n"})
	url := fmt.Sprintf("ssh://git@%s:%d/skills.git", srv.Host, srv.Port)
	err := listRefs(For(url), url)
	if err == nil || !strings.Contains(err.Error(), "no known_hosts file") {
		t.Fatalf("List: %v, want an error that names the missing known_hosts", err)
	}
}

// sshKeygen runs ssh-keygen with args.
func sshKeygen(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ssh-keygen", args...).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// fingerprint is the SHA256 fingerprint of the public key line pub.
func fingerprint(t *testing.T, pub string) string {
	t.Helper()
	pk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(pub))
	if err != nil {
		t.Fatal(err)
	}
	return ssh.FingerprintSHA256(pk)
}
