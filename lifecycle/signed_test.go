package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

func TestSignedApprovalCounts(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	useKey(t, dir, k.grace)
	res, err := open(t, dir).Approve(id, "good", lead)
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("approve: %v, warnings %q", err, res.Warnings)
	}
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Approvals[0]; !a.Signed || a.Signer != "grace@example.com" || a.Unverified != "" || c.State != StateApproved {
		t.Fatalf("state %s, approval %+v; want approved with a verified signature", c.State, a)
	}
	if _, err := open(t, dir).Publish(id, "", lead); err != nil {
		t.Fatalf("publish: %v", err)
	}
	testenv.Fsck(t, dir)
}

func TestApproveWithoutSigningKey(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	useKey(t, dir, "")
	_, err := open(t, dir).Approve(id, "", lead)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "git config user.signingkey") {
		t.Fatalf("approve with no key: %v; want a refusal that names git config user.signingkey", err)
	}
	if c, _ := open(t, dir).Book().Candidate(id); len(c.Approvals) != 0 {
		t.Fatalf("a refused approval was recorded: %+v", c.Approvals)
	}
}

// TestUnverifiedApprovalsDoNotCount publishes nothing whose only approval is unsigned, signed
// by an unknown key, signed with another person's key, or by the candidate's own author.
func TestUnverifiedApprovalsDoNotCount(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	bob := ActOptions{Author: "Bob Builder <bob@example.com>"}
	shouting := ActOptions{Author: "Agent Smith <AGENT@Example.com>"}
	tests := []struct {
		name, key string
		who       ActOptions
		self      bool
		want      string
	}{
		{"unsigned", "", lead, false, "Grace Hopper <grace@example.com> (not signed)"},
		{"key not allowed", k.mallory, lead, false, "is not an allowed signer"},
		{"another person's key", k.grace, bob, false, "may not sign as bob@example.com: line 2 allows it for grace@example.com only"},
		{"the author, other letter case", k.agent, shouting, true, "Agent Smith <AGENT@Example.com> (wrote the candidate)"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := proposeSigned(t, dir, k.agent, "skill-"+string(rune('a'+i)))
			approveWith(t, dir, id, tt.key, tt.who, tt.self)
			c, err := open(t, dir).Book().Candidate(id)
			if err != nil || c.State != StateOpen {
				t.Fatalf("state %v (%v); want open", c.State, err)
			}
			_, err = open(t, dir).Publish(id, "", lead)
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "unsigned and unverified approvals, and those by the candidate's writers, do not count") ||
				!strings.Contains(err.Error(), tt.want) {
				t.Fatalf("publish: %v\nwant a refusal containing %q", err, tt.want)
			}
		})
	}
}

// TestSignersComeFromThePublishBranch keeps the allowed-signers file inside a skill, where a
// candidate may change it, and shows that a candidate listing its own signer gains nothing.
func TestSignersComeFromThePublishBranch(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, map[string]string{"skills/pdf-tools/SKILL.md": testenv.SkillMD("pdf-tools", cleanLine)})
	mallory, err := os.ReadFile(k.mallory + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{"pdf-tools/SKILL.md": testenv.SkillMD("pdf-tools", cleanLine, "More."),
		"pdf-tools/allowed_signers": "mallory@example.com " + string(mallory)})
	id := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/pdf-tools", Message: "more"}).ID
	approveWith(t, dir, id, k.mallory, ActOptions{Author: "Mallory <mallory@example.com>"}, false)
	_, err = open(t, dir).Publish(id, "", lead)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "Mallory <mallory@example.com> (key SHA256:") {
		t.Fatalf("publish: %v; want a refusal naming Mallory's unlisted key", err)
	}
	useKey(t, dir, k.bob)
	if _, err := open(t, dir).Approve(id, "", ActOptions{Author: "Bob Builder <bob@example.com>"}); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); err != nil {
		t.Fatalf("publish with Bob's approval: %v", err)
	}
}

func TestSignersFileMissingOrBroken(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	approveWith(t, dir, id, k.grace, lead, false)
	testenv.WriteFiles(t, dir, map[string]string{policy.DefaultAllowedSigners: "grace@example.com ssh-ed25519 !!!\n"})
	testenv.CommitAll(t, dir, "break the signers")
	_, err := open(t, dir).Publish(id, "", lead)
	if err == nil || !strings.Contains(err.Error(), "main:.skillgit/allowed_signers: line 1: no valid public key") {
		t.Fatalf("publish: %v; want a refusal naming the broken line", err)
	}
	testenv.RemoveAll(t, dir+"/.skillgit")
	testenv.CommitAll(t, dir, "drop the signers")
	_, err = open(t, dir).Publish(id, "", lead)
	if err == nil || !strings.Contains(err.Error(), "main has no .skillgit/allowed_signers") {
		t.Fatalf("publish: %v; want a refusal naming the missing file", err)
	}
}

func TestSignedConfig(t *testing.T) {
	c, err := policy.ParseConfig([]byte("approvals:\n  signed: true\n"))
	if err != nil || !c.Approvals.Signed || c.Approvals.AllowedSigners != policy.DefaultAllowedSigners {
		t.Fatalf("ParseConfig = %+v, %v", c, err)
	}
	for _, bad := range []string{"../signers", "/etc/signers", ".git/signers", "a//b"} {
		_, err := policy.ParseConfig([]byte("approvals:\n  allowed_signers: " + bad + "\n"))
		if err == nil || !strings.Contains(err.Error(), "approvals.allowed_signers") {
			t.Errorf("allowed_signers %q: %v; want it refused", bad, err)
		}
	}
}

// TestUnverifiedApprovalAcceptsNothing keeps a high finding that only an unsigned approval
// accepted blocking the publish, though a signed approval lets it through otherwise.
func TestUnverifiedApprovalAcceptsNothing(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeInstaller(t, dir, t.TempDir(), evilLine)
	fp := reviewFinding(t, dir, id, "SG-EXE-005").Fingerprint
	forger := open(t, dir)
	forger.cfg.Approvals.Signed = false
	if _, err := forger.ApproveAccepting(id, "pinned installer", []string{fp}, lead); err != nil {
		t.Fatal(err)
	}
	approveWith(t, dir, id, k.bob, ActOptions{Author: "Bob Builder <bob@example.com>"}, false)
	if c, err := open(t, dir).Book().Candidate(id); err != nil || c.Risk != "high" {
		t.Fatalf("risk %q (%v); an unsigned acceptance must not lower it", c.Risk, err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "high risk") {
		t.Fatalf("publish: %v; want it refused as high risk", err)
	}
	useKey(t, dir, k.grace)
	if _, err := open(t, dir).ApproveAccepting(id, "pinned installer", []string{fp}, lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); err != nil {
		t.Fatalf("publish after a signed acceptance: %v", err)
	}
}

func TestApprovedEnoughSigned(t *testing.T) {
	signed := func(mode policy.Mode) *policy.Config {
		cfg := policy.DefaultConfig("main")
		cfg.Approvals.Signed, cfg.Mode = true, mode
		return cfg
	}
	grace := Approval{Who: Actor{Name: "Grace Hopper", Email: "grace@example.com"}, Signed: true, Signer: "grace@example.com"}
	unsigned := Approval{Who: Actor{Name: "Grace Hopper", Email: "grace@example.com"}, Unverified: "not signed"}
	self := Approval{Who: Actor{Name: "Agent Smith", Email: "AGENT@example.com"}, Signed: true, Signer: "AGENT@example.com"}
	byPolicy := Approval{Who: Actor{Name: "Agent Smith", Email: "agent@example.com"}, Policy: "assisted"}
	writers := []string{"agent@example.com"}
	tests := []struct {
		name      string
		cfg       *policy.Config
		approvals []Approval
		want      bool
		why       string
	}{
		{"verified", signed(policy.ModeManual), []Approval{grace}, true, ""},
		{"unverified", signed(policy.ModeManual), []Approval{unsigned}, false, "Grace Hopper <grace@example.com> (not signed)"},
		{"writer", signed(policy.ModeManual), []Approval{self}, false, "Agent Smith <AGENT@example.com> (wrote the candidate)"},
		{"policy in manual mode", signed(policy.ModeManual), []Approval{byPolicy}, false, "policy assisted (the manual mode does not approve this change)"},
		{"policy in assisted mode", signed(policy.ModeAssisted), []Approval{byPolicy}, true, ""},
		{"unverified without signed", policy.DefaultConfig("main"), []Approval{unsigned}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, why := ledger.ApprovedEnough(tt.cfg, &Candidate{Risk: "low", Approvals: tt.approvals}, writers)
			if ok != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("ledger.ApprovedEnough = %v, %q; want %v and a reason with %q", ok, why, tt.want, tt.why)
			}
		})
	}
}

// TestSigningProgram signs through gpg.ssh.program when it is set, and says what is wrong
// when the signing key is not an SSH key.
func TestSigningProgram(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	useKey(t, dir, "0xDEADBEEF")
	_, err := open(t, dir).Approve(id, "", lead)
	if err == nil || !strings.Contains(err.Error(), "user.signingkey must name an SSH key") {
		t.Fatalf("approve with a key id: %v; want it refused", err)
	}
	marker := filepath.Join(t.TempDir(), "used")
	wrapper := filepath.Join(t.TempDir(), "sign.sh")
	testenv.WriteFiles(t, filepath.Dir(wrapper), map[string]string{"sign.sh": "#!/bin/sh\ntouch " + marker + "\nexec ssh-keygen \"$@\"\n"})
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "config", "gpg.ssh.program", wrapper)
	useKey(t, dir, k.grace)
	if _, err := open(t, dir).Approve(id, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("gpg.ssh.program was not run: %v", err)
	}
	if c, _ := open(t, dir).Book().Candidate(id); c.State != StateApproved {
		t.Errorf("state %s; want approved", c.State)
	}
}

func TestApproveWarnsWhenItWillNotCount(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	useKey(t, dir, k.mallory)
	res, err := open(t, dir).Approve(id, "", lead)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "is not an allowed signer), so it does not count") || res.State != StateOpen {
		t.Fatalf("state %s, warnings %q; want open and a warning that names the unlisted key", res.State, res.Warnings)
	}
}
