package lifecycle

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestGitVerifiesSkillgitSignature checks an approval skillgit signed with git verify-commit.
func TestGitVerifiesSkillgitSignature(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	useKey(t, dir, k.grace)
	if _, err := open(t, dir).Approve(id, "good", lead); err != nil {
		t.Fatal(err)
	}
	signersFile := filepath.Join(dir, policy.DefaultAllowedSigners)
	out, err := exec.Command("git", "-C", dir, "-c", "gpg.ssh.allowedSignersFile="+signersFile,
		"verify-commit", "-v", "candidate/"+id).CombinedOutput()
	if err != nil || !strings.Contains(string(out), `Good "git" signature for grace@example.com`) {
		t.Fatalf("git verify-commit: %v\n%s", err, out)
	}
	testenv.Fsck(t, dir)
}

// TestSkillgitVerifiesGitSignature makes an approval with git commit-tree -S and
// gpg.format=ssh, as a reviewer without skillgit would, and checks that it counts.
func TestSkillgitVerifiesGitSignature(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	msg := "approve: pdf-tools (candidate " + id + ")\n\nLooks right.\n\n" + keyAction + ": " + actApprove + "\n" +
		keySkill + ": pdf-tools\n" + keyCandidate + ": " + id + "\n" + keyApproved + ": Bob Builder <bob@example.com>\n"
	cmd := exec.Command("git", "-C", dir, "-c", "gpg.format=ssh", "-c", "user.signingkey="+k.bob,
		"commit-tree", "-S", "-p", "candidate/"+id, "-m", msg, "candidate/"+id+"^{tree}")
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Bob Builder", "GIT_AUTHOR_EMAIL=bob@example.com",
		"GIT_COMMITTER_NAME=Bob Builder", "GIT_COMMITTER_EMAIL=bob@example.com")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git commit-tree -S: %v", err)
	}
	testenv.Git(t, dir, "update-ref", "refs/heads/candidate/"+id, strings.TrimSpace(string(out)))
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Approvals) != 1 || !c.Approvals[0].Signed || c.Approvals[0].Signer != "bob@example.com" {
		t.Fatalf("approvals %+v; want Bob's, verified", c.Approvals)
	}
	if _, err := open(t, dir).Publish(id, "", lead); err != nil {
		t.Fatalf("publish: %v", err)
	}
}
