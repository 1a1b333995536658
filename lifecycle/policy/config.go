// Package policy is what a skill repository's configuration says: the .skillgit.yaml file,
// its defaults and validation, the lifecycle modes, the audit policy, profiles, the skip
// switch and the agents' scope. It reads no repository: callers pass the bytes or the parsed
// configuration, so that the same rules judge a working tree, a commit and a hook's base.
package policy

import (
	"bytes"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/filenames"
)

// ConfigFile is the repository configuration file, committed on the publish branch.
const ConfigFile = filenames.Config

// MaxConfigSize bounds how much of a configuration file is read.
const MaxConfigSize = 256 << 10

// DefaultAllowedSigners is where the allowed-signers file is when approvals.allowed_signers
// does not say.
const DefaultAllowedSigners = ".skillgit/allowed_signers"

// Mode says how much of the lifecycle runs without a person.
type Mode string

// The lifecycle modes (DESIGN.md §3).
const (
	ModeManual     Mode = "manual"
	ModeAssisted   Mode = "assisted"
	ModeAutonomous Mode = "autonomous"
)

// Config is the contents of .skillgit.yaml.
type Config struct {
	PublishBranch string      `yaml:"publish_branch"`
	SkillsDir     string      `yaml:"skills_dir"`
	Mode          Mode        `yaml:"mode"`
	Approvals     Approvals   `yaml:"approvals"`
	Audit         AuditConfig `yaml:"audit"`
	Sync          SyncConfig  `yaml:"sync"`
	// Server configures the repository that a team pushes to.
	Server ServerConfig `yaml:"server,omitempty"`
	Packs  []Pack       `yaml:"packs"`
	// Agents adds agents to the built-in agent table, or overrides fields of one.
	Agents []catalog.Agent `yaml:"agents,omitempty"`
	// Profiles maps a profile name to an ordered list of skill names: the skills an agent
	// gets for one kind of task, core layer first, then adapters.
	Profiles map[string][]string `yaml:"profiles,omitempty"`
	// Selection sets how many skills match and prompt choose for each step of a task.
	Selection SelectionConfig `yaml:"selection,omitempty"`
	// Dedupe says when a candidate is marked a likely duplicate of another skill.
	Dedupe DedupeConfig `yaml:"dedupe,omitempty"`
	// AgentScope lists the name globs of the skills that unattended actors (agents) manage,
	// besides those whose metadata.managed-by is skillgit; empty means DefaultAgentScope.
	// Outside it, nothing an agent proposes is approved, published or rolled back without a
	// person.
	AgentScope []string `yaml:"agent_scope,omitempty"`
}

// Approvals is the approval policy.
type Approvals struct {
	// Required is how many distinct people must approve a candidate.
	Required int `yaml:"required"`
	// AllowSelf lets the author of a candidate count among its approvers.
	AllowSelf bool `yaml:"allow_self"`
	// Signed makes only approvals count whose SSH signature verifies against a key the
	// allowed-signers file lists for the approver's email.
	Signed bool `yaml:"signed"`
	// AllowedSigners is the allowed-signers file, read from the publish branch.
	AllowedSigners string `yaml:"allowed_signers"`
}

// AuditConfig configures the security audit.
type AuditConfig struct {
	SkipSecurityAudit bool     `yaml:"skip_security_audit"`
	FailOn            string   `yaml:"fail_on"`
	Allow             string   `yaml:"allow"`
	Installers        []string `yaml:"installers"`
}

// ServerConfig configures the shared repository a team pushes to, where skillgit's
// pre-receive hook runs.
type ServerConfig struct {
	// Protect makes the pre-receive hook accept an update of the publish branch only when it
	// is what skillgit makes: publishes of approved candidates, approved policy changes and
	// rollbacks.
	Protect bool `yaml:"protect,omitempty"`
}

// SyncConfig says where published skills are installed.
type SyncConfig struct {
	Channel string   `yaml:"channel"`
	Targets []Target `yaml:"targets"`
}

// DefaultConfig returns the configuration a new repository starts with.
func DefaultConfig(branch string) *Config {
	c := &Config{PublishBranch: branch}
	c.applyDefaults()
	return c
}

func (c *Config) applyDefaults() {
	setDefault(&c.PublishBranch, "main")
	setDefault(&c.SkillsDir, "skills")
	setDefault((*string)(&c.Mode), string(ModeManual))
	setDefault(&c.Audit.FailOn, "high")
	setDefault(&c.Audit.Allow, ".skillgit/audit-allow.yaml")
	setDefault(&c.Sync.Channel, "main")
	setDefault(&c.Approvals.AllowedSigners, DefaultAllowedSigners)
	if c.Approvals.Required == 0 {
		c.Approvals.Required = 1
	}
}

func setDefault(s *string, v string) {
	if *s == "" {
		*s = v
	}
}

// Marshal renders the configuration as YAML.
func (c *Config) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString("# skillgit repository configuration. Changes to it are commits, so policy has an audit trail too.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		panic(err) // the type is ours and always encodes
	}
	return b.Bytes()
}
