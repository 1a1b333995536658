// Package policy is what a skill repository's configuration says: the .skillgit.yaml file,
// its defaults and validation, the lifecycle modes, the audit policy, profiles, the skip
// switch and the agents' scope. It reads no repository: callers pass the bytes or the parsed
// configuration, so that the same rules judge a working tree, a commit and a hook's base.
package policy

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/catalog"
)

// ConfigFile is the repository configuration file, committed on the publish branch.
const ConfigFile = ".skillgit.yaml"

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

// Target is a sync target: an agent id, or an explicit folder.
type Target struct {
	Agent string `yaml:"agent"`
	Dir   string `yaml:"dir"`
}

// UnmarshalYAML accepts a bare agent id or a mapping with agent or dir.
func (t *Target) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		t.Agent = n.Value
		return nil
	}
	type plain Target
	return n.Decode((*plain)(t))
}

// MarshalYAML writes an agent target as a bare id.
func (t Target) MarshalYAML() (any, error) {
	if t.Dir == "" {
		return t.Agent, nil
	}
	type plain Target
	return plain(t), nil
}

// Pack is a skill pack pulled from a git remote.
type Pack struct {
	Name string `yaml:"name"`
	URL  string `yaml:"url"`
	Ref  string `yaml:"ref"`
	Path string `yaml:"path"`
	// MaxBytes is the most object content, inflated, that pack update reads from the pack;
	// 0 means DefaultPackMaxBytes. A pack over it is refused before it is held in memory.
	MaxBytes int64 `yaml:"max_bytes,omitempty"`
	// Include, when not empty, keeps only the pack's skills whose names match one of these
	// path.Match globs; Exclude drops the skills whose names match one of its globs.
	Include []string `yaml:"include,omitempty"`
	Exclude []string `yaml:"exclude,omitempty"`
	// Prefix namespaces the pack: each skill's folder and name become Prefix+name.
	Prefix string `yaml:"prefix,omitempty"`
	// Lenient admits skills that agents load but the reference validator refuses (a long
	// description, unknown frontmatter keys), as candidates marked with a warning.
	Lenient bool `yaml:"lenient,omitempty"`
}

// packPrefixPattern is what a pack's prefix looks like: the start of a skill name.
var packPrefixPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// CheckPackSelection checks a pack's include and exclude globs and its prefix.
func CheckPackSelection(p Pack) error {
	for _, g := range slices.Concat(p.Include, p.Exclude) {
		if _, err := path.Match(g, ""); err != nil || g == "" {
			return fmt.Errorf("pack %s: %q is not a valid glob of skill names (path.Match syntax: *, ?, [a-z])", p.Name, g)
		}
	}
	if p.Prefix != "" && (!packPrefixPattern.MatchString(p.Prefix) || strings.Contains(p.Prefix, "--")) {
		return fmt.Errorf("pack %s: prefix %q: use lowercase letters, digits and '-', at most 32, starting with a letter or digit, no '--'", p.Name, p.Prefix)
	}
	return nil
}

// DefaultPackMaxBytes is the most object content, inflated, that `pack update` reads from one
// pack when the pack sets no max_bytes in .skillgit.yaml.
const DefaultPackMaxBytes int64 = 256 << 20

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

// ConfigError is a mistake in .skillgit.yaml: the line it is on, when known, and what is wrong.
// ParseConfig returns every error as a *ConfigError.
type ConfigError struct {
	// Line is the 1-based line of the mistake, or 0 when no single line is to blame.
	Line int
	// Message says what is wrong, without the file name and line.
	Message string
	err     error
}

// Error returns ".skillgit.yaml:LINE: MESSAGE", without the line when it is 0.
func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", ConfigFile, e.Line, e.Message)
	}
	return ConfigFile + ": " + e.Message
}

// Unwrap returns the error the mistake was found as, if any.
func (e *ConfigError) Unwrap() error { return e.err }

// asConfigError turns an error of parseConfig, which starts with the file name and maybe a
// line, into a *ConfigError with the same text.
func asConfigError(err error) *ConfigError {
	if ce, ok := errors.AsType[*ConfigError](err); ok {
		return ce
	}
	msg := strings.TrimPrefix(err.Error(), ConfigFile)
	ce := &ConfigError{Message: strings.TrimPrefix(msg, ": "), err: errors.Unwrap(err)}
	if rest, ok := strings.CutPrefix(msg, ":"); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				ce.Line, ce.Message = n, tail
			}
		}
	}
	return ce
}

// ParseConfig parses and validates .skillgit.yaml. Unknown keys are errors naming their line.
// Every error is a *ConfigError.
func ParseConfig(data []byte) (*Config, error) {
	c, err := parseConfig(data)
	if err != nil {
		return nil, asConfigError(err)
	}
	return c, nil
}

func parseConfig(data []byte) (*Config, error) {
	if len(data) > MaxConfigSize {
		return nil, fmt.Errorf("%s: file is %d bytes, larger than the %d-byte limit", ConfigFile, len(data), MaxConfigSize)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %s", ConfigFile, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c := &Config{}
	if len(root.Content) > 0 {
		if err := checkKeys(root.Content[0], configSchema, ""); err != nil {
			return nil, err
		}
		if err := checkProfiles(root.Content[0]); err != nil {
			return nil, err
		}
		if err := root.Content[0].Decode(c); err != nil {
			return nil, fmt.Errorf("%s: %s", ConfigFile, strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	c.applyDefaults()
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", ConfigFile, err)
	}
	return c, nil
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
