package agentsync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/internal/lazyregexp"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// SyncFileName is the file at the top of an application project that names the skill
// repository whose published skills the project installs.
const SyncFileName = filenames.SyncFile

// unknownField finds the key yaml.v3 names in the error of a key that SyncFile lacks.
var unknownField = lazyregexp.New(`field (\S+) not found in type \S+`)

// maxSyncFileSize bounds the read of a sync file.
const maxSyncFileSize = 64 << 10

// SyncFile is what an application project's .skillgit-sync.yaml asks for.
type SyncFile struct {
	// Repository is the skill repository: a path relative to the file's folder, or a git URL.
	Repository string `yaml:"repository"`
	// Branch, when set, is the skill repository's publish branch, which then is never
	// guessed: for a URL, the branch the repository's HEAD names is read otherwise.
	Branch string `yaml:"branch,omitempty"`
	// Channel is main or canary; empty means the skill repository's sync.channel.
	Channel string `yaml:"channel,omitempty"`
	// Agents are the agent ids to install for.
	Agents []string `yaml:"agents,omitempty"`
	// Profile, when set, installs only the skills of this profile of the skill repository.
	Profile string `yaml:"profile,omitempty"`
	// Skills, when set, installs only these skills.
	Skills []string `yaml:"skills,omitempty"`
	// Trust, when set, names whom the project trusts to approve what it installs: a skill
	// version is installed only when people whose keys its allowed-signers file lists
	// approved it. Without it, installs are not verified, and sync says so.
	Trust *TrustSpec `yaml:"trust,omitempty"`
}

// TrustSpec is the trust: key of a sync file.
type TrustSpec struct {
	// Signers is the project's allowed-signers file (git's format), relative to the sync file.
	Signers string `yaml:"signers"`
	// Approvals is how many people must have approved a version; 1 when unset.
	Approvals int `yaml:"approvals,omitempty"`
}

// ParseSyncFile reads a sync file strictly: an unknown key, a bad channel, a bad name or a
// missing repository is an error naming file, the path it was read from.
func ParseSyncFile(data []byte, file string) (*SyncFile, error) {
	var sf SyncFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&sf); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty; it needs at least repository: and agents:", file)
		}
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
		msg = unknownField().ReplaceAllString(msg, "unknown key $1 (the keys are repository, branch, channel, agents, profile, skills and trust)")
		return nil, fmt.Errorf("%s: %s", file, msg)
	}
	if err := sf.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &sf, nil
}

// validate checks the values a sync file holds; agent ids are checked against the agent
// table of the skill repository once it is open (see CheckAgents).
func (sf *SyncFile) validate() error {
	sf.Repository = strings.TrimSpace(sf.Repository)
	switch {
	case sf.Repository == "":
		return errors.New("repository: is missing; name the skill repository by a path relative to this file or a git URL")
	case strings.ContainsRune(sf.Repository, 0) || strings.ContainsAny(sf.Repository, "\n\r"):
		return fmt.Errorf("repository: %q holds a control character", gitauth.Redact(sf.Repository))
	}
	if err := gitauth.Check(sf.Repository); err != nil {
		return fmt.Errorf("repository: %w", err)
	}
	if sf.Branch != "" && !policy.ValidBranchName(sf.Branch) {
		return fmt.Errorf("branch: %q is not a branch name; name the skill repository's publish branch, such as release", sf.Branch)
	}
	if sf.Channel != "" && sf.Channel != "main" && sf.Channel != "canary" {
		return fmt.Errorf("channel: %q is not one of main, canary", sf.Channel)
	}
	if sf.Profile != "" && len(sf.Skills) > 0 {
		return errors.New("profile: and skills: do not go together; keep one of them")
	}
	for _, id := range sf.Agents {
		if strings.TrimSpace(id) == "" || strings.ContainsAny(id, "/\\ \t\n") {
			return fmt.Errorf("agents: %q is not an agent id; `skillgit sync --list-targets` lists them", id)
		}
	}
	if sf.Profile != "" && strings.ContainsAny(sf.Profile, "/\\\n") {
		return fmt.Errorf("profile: %q is not a profile name", sf.Profile)
	}
	for _, n := range sf.Skills {
		if err := catalog.CheckSkillName(n); err != nil {
			return fmt.Errorf("skills: %w", err)
		}
	}
	return sf.Trust.validate()
}

// validate checks the trust: key; nil is a valid, absent one.
func (t *TrustSpec) validate() error {
	if t == nil {
		return nil
	}
	if err := policy.CheckRelDir("trust.signers", t.Signers); err != nil || t.Signers == "" {
		return fmt.Errorf("trust.signers: %q is not a file of the project; name its allowed-signers file by a path relative to this file, such as .skillgit/trusted_signers", t.Signers)
	}
	switch {
	case t.Approvals == 0:
		t.Approvals = 1
	case t.Approvals < 0 || t.Approvals > 16:
		return fmt.Errorf("trust.approvals: %d is not between 1 and 16", t.Approvals)
	}
	return nil
}

// CheckAgents makes sure every agent id of the file is in table; file names the file in
// the error.
func (sf *SyncFile) CheckAgents(table []catalog.Agent, file string) error {
	for _, id := range sf.Agents {
		if _, ok := catalog.FindAgent(table, id); !ok {
			return fmt.Errorf("%s: agents: unknown agent %q; `skillgit sync --list-targets` lists the agents", file, id)
		}
	}
	return nil
}

// ReadSyncFile reads and parses the sync file at file, which must be a regular file no
// larger than 64 KiB.
func ReadSyncFile(file string) (*SyncFile, error) {
	data, _, err := boundedfile.Read(file, maxSyncFileSize)
	switch {
	case errors.Is(err, boundedfile.ErrNotRegular):
		return nil, fmt.Errorf("%s: not a regular file (a link or a folder); make it a plain file", file)
	case errors.Is(err, boundedfile.ErrTooLarge):
		return nil, fmt.Errorf("%s: larger than %d KiB; a sync file is a few lines", file, maxSyncFileSize>>10)
	case err != nil:
		return nil, err
	}
	return ParseSyncFile(data, file)
}

// FindSyncFile looks for the sync file in dir and each folder above it, stopping at the
// folder that holds .git (the top of the project) or the root. It returns the file's path
// and whether one was found.
func FindSyncFile(dir string) (string, bool, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false, err
	}
	for {
		file := filepath.Join(d, SyncFileName)
		if _, err := os.Lstat(file); err == nil {
			return file, true, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", false, err
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return "", false, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false, nil
		}
		d = parent
	}
}
