package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/skillgit/skillgit/catalog"
)

// validate checks what the keys of a decoded configuration hold, after the defaults.
func (c *Config) validate() error {
	switch c.Mode {
	case ModeManual, ModeAssisted, ModeAutonomous:
	default:
		return fmt.Errorf("mode %q is not one of manual, assisted, autonomous", c.Mode)
	}
	if err := CheckRelDir("skills_dir", c.SkillsDir); err != nil {
		return err
	}
	if err := CheckRelDir("audit.allow", c.Audit.Allow); err != nil {
		return err
	}
	if err := CheckRelDir("approvals.allowed_signers", c.Approvals.AllowedSigners); err != nil {
		return err
	}
	if err := c.checkPolicyOutsideSkills(); err != nil {
		return err
	}
	if !ValidBranchName(c.PublishBranch) {
		return fmt.Errorf("publish_branch %q is not a valid branch name", c.PublishBranch)
	}
	if c.Approvals.Required < 1 || c.Approvals.Required > 100 {
		return fmt.Errorf("approvals.required is %d; it must be between 1 and 100", c.Approvals.Required)
	}
	switch c.Audit.FailOn {
	case "low", "medium", "high", "critical":
	default:
		return fmt.Errorf("audit.fail_on %q is not one of low, medium, high, critical", c.Audit.FailOn)
	}
	switch c.Sync.Channel {
	case "main", "canary":
	default:
		return fmt.Errorf("sync.channel %q is not one of main, canary", c.Sync.Channel)
	}
	if err := c.Selection.validate(); err != nil {
		return err
	}
	if err := c.Dedupe.validate(); err != nil {
		return err
	}
	return c.validateLists()
}

func (c *Config) validateLists() error {
	for i, t := range c.Sync.Targets {
		if (t.Agent == "") == (t.Dir == "") {
			return fmt.Errorf("sync.targets[%d]: give either an agent id or {dir: PATH}", i)
		}
	}
	if err := validateAgents(c.Agents); err != nil {
		return err
	}
	if err := validateAgentScope(c.AgentScope); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, p := range c.Packs {
		if p.Name == "" || p.URL == "" {
			return fmt.Errorf("packs[%d]: name and url are required", i)
		}
		if seen[p.Name] {
			return fmt.Errorf("packs[%d]: pack name %q is used twice", i, p.Name)
		}
		if err := CheckPackSelection(p); err != nil {
			return fmt.Errorf("packs[%d]: %w", i, err)
		}
		if p.MaxBytes < 0 {
			return fmt.Errorf("packs[%d]: max_bytes %d is negative; give a number of bytes, or leave it out for %d", i, p.MaxBytes, DefaultPackMaxBytes)
		}
		seen[p.Name] = true
	}
	return nil
}

// validateAgents checks the agents section: valid entries, each id once.
func validateAgents(agents []catalog.Agent) error {
	seen := map[string]bool{}
	for i, a := range agents {
		if err := catalog.CheckAgent(a); err != nil {
			return fmt.Errorf("agents[%d]: %w", i, err)
		}
		if seen[a.ID] {
			return fmt.Errorf("agents[%d]: agent id %q is used twice", i, a.ID)
		}
		seen[a.ID] = true
	}
	return nil
}

// CheckRelDir accepts a clean, relative slash path that stays inside the repository.
func CheckRelDir(key, p string) error {
	if p == "" || path.IsAbs(p) || strings.Contains(p, `\`) || path.Clean(p) != p ||
		p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("%s %q must be a clean relative path inside the repository", key, p)
	}
	for _, part := range strings.Split(p, "/") {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("%s %q may not point into .git", key, p)
		}
	}
	return nil
}

// ValidBranchName reports whether b is a branch name in a conservative subset of git
// check-ref-format.
func ValidBranchName(b string) bool {
	if b == "" || len(b) > 200 || strings.HasPrefix(b, "-") || strings.HasPrefix(b, "/") ||
		strings.HasSuffix(b, "/") || strings.HasSuffix(b, ".lock") || strings.HasSuffix(b, ".") ||
		strings.Contains(b, "..") || strings.Contains(b, "//") || strings.Contains(b, "@{") || b == "@" {
		return false
	}
	for _, r := range b {
		if r <= ' ' || r == 0x7f || strings.ContainsRune("~^:?*[\\", r) {
			return false
		}
	}
	for _, part := range strings.Split(b, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}

// checkPolicyOutsideSkills refuses an allow list or signers file inside the skills folder: there
// a skill candidate, which the mode may approve and publish on its own, could change the policy
// that judges it.
func (c *Config) checkPolicyOutsideSkills() error {
	for _, f := range []struct{ key, path string }{{"audit.allow", c.Audit.Allow}, {"approvals.allowed_signers", c.Approvals.AllowedSigners}} {
		if f.path == c.SkillsDir || strings.HasPrefix(f.path, c.SkillsDir+"/") {
			return fmt.Errorf("%s %q lies in skills_dir %q, where skill candidates could change it; keep it in .skillgit/", f.key, f.path, c.SkillsDir)
		}
	}
	return nil
}
