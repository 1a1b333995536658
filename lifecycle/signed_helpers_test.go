package lifecycle

import (
	"os/exec"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// sshKey makes an ed25519 key pair with ssh-keygen and returns the private key file and the
// sshKey makes an ed25519 key pair; see testenv.SSHKey.
func sshKey(t *testing.T, name string) (string, string) {
	t.Helper()
	return testenv.SSHKey(t, name)
}

// signers are the keys of the people in the signed-approval tests.
type signers struct{ grace, bob, agent, mallory string }

// signedRepo makes a repository whose publish branch requires signed approvals and lists
// Grace, Bob and the agent in the allowed-signers file at path, and returns their private
// key files. Mallory has a key but is not listed. The repository signs with the agent's key.
func signedRepo(t *testing.T, path string, extra map[string]string) (string, signers) {
	t.Helper()
	dir := newRepo(t)
	var k signers
	var grace, bob, agentKey string
	k.grace, grace = sshKey(t, "grace")
	k.bob, bob = sshKey(t, "bob")
	k.agent, agentKey = sshKey(t, "agent")
	k.mallory, _ = sshKey(t, "mallory")
	cfg := policy.DefaultConfig("main")
	cfg.Approvals.Signed, cfg.Approvals.AllowedSigners = true, path
	files := map[string]string{policy.ConfigFile: string(cfg.Marshal()), path: "# who may approve\n" +
		"grace@example.com " + grace + "\n" + `bob@example.com namespaces="git" ` + bob + "\n" +
		"agent@example.com " + agentKey + "\n"}
	for name, content := range extra {
		files[name] = content
	}
	testenv.WriteFiles(t, dir, files)
	testenv.CommitAll(t, dir, "policy: signed approvals")
	useKey(t, dir, k.agent) // the agent proposes, and signs what it writes
	return dir, k
}

// useKey makes key the repository's git signing key; an empty key unsets it.
func useKey(t *testing.T, dir, key string) {
	t.Helper()
	if key == "" {
		cmd := exec.Command("git", "-C", dir, "config", "--unset-all", "user.signingkey")
		_ = cmd.Run() // exits 5 when it was not set
		return
	}
	testenv.Git(t, dir, "config", "user.signingkey", key)
}

// proposeSigned proposes a new skill called name as the agent, signed with key.
func proposeSigned(t *testing.T, dir, key, name string) string {
	t.Helper()
	useKey(t, dir, key)
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, cleanLine)})
	return propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/" + name, Message: "learned"}).ID
}

// approveWith records an approval as who, signed with key; unsigned when key is empty.
// selfOK lets a writer of the candidate approve, as a forger could.
func approveWith(t *testing.T, dir, id, key string, who ActOptions, selfOK bool) {
	t.Helper()
	useKey(t, dir, key)
	r := open(t, dir)
	r.cfg.Approvals.Signed = key != ""
	r.cfg.Approvals.AllowSelf = selfOK
	if _, err := r.Approve(id, "", who); err != nil {
		t.Fatalf("approve: %v", err)
	}
}
