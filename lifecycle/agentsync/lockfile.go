package agentsync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// LockFileName is the file beside an application project's sync file that pins what its
// agents run: the skill repository's commit and every installed skill's tree id.
const LockFileName = filenames.ProjectLock

// LockVersion is the version of the lock file's format that this skillgit writes and reads.
const LockVersion = 1

// maxLockFileSize bounds the read of a lock file: some hundred bytes a skill, for 100,000
// skills and more.
const maxLockFileSize = 64 << 20

// lockStartOver says what to do with a lock file that cannot be read.
const lockStartOver = "restore it from git, or start over: delete it and run `skillgit sync --update`, which locks the channel's tip"

// lockHeader opens every lock file.
const lockHeader = "# Written by skillgit sync; commit it with the project. `skillgit sync --update` moves it.\n"

// Lock is an application project's .skillgit-sync.lock.
type Lock struct {
	// Version is LockVersion.
	Version int `yaml:"version"`
	// Repository is the skill repository, as the sync file names it.
	Repository string `yaml:"repository"`
	// Branch is the skill repository's publish branch the lock was moved on; empty in a lock
	// written before it was recorded.
	Branch string `yaml:"branch,omitempty"`
	// Channel is the channel the skills were taken from.
	Channel string `yaml:"channel"`
	// Profile is the sync file's profile: when the lock was moved; empty when it has none.
	Profile string `yaml:"profile,omitempty"`
	// Select is the sync file's skills: list when the lock was moved, sorted, each once.
	Select []string `yaml:"select,omitempty"`
	// Commit is the channel's commit the lock was last moved to.
	Commit string `yaml:"commit"`
	// Targets are the folders installed into, in order of Dir.
	Targets []LockTarget `yaml:"targets"`
	// Skills are the installed skills, in order of Name.
	Skills []LockedSkill `yaml:"skills"`
}

// LockTarget is one folder the project's skills are installed into.
type LockTarget struct {
	// Agent is the agent id whose folder it is; empty for a folder given by path.
	Agent string `yaml:"agent,omitempty"`
	// Dir is the folder, relative to the project's top, with forward slashes.
	Dir string `yaml:"dir"`
}

// LockedSkill is one skill pinned by the lock.
type LockedSkill struct {
	// Name is the skill's name, its folder's name in every target.
	Name string `yaml:"name"`
	// Folder is the skill's folder below the skills folder, with forward slashes, when it
	// lies in a category folder (such as tools/pdf for the skill pdf); empty when the folder
	// is Name itself.
	Folder string `yaml:"folder,omitempty"`
	// Tree is the git tree id of the skill's folder: what is installed, byte for byte.
	Tree string `yaml:"tree"`
	// Commit is the channel's commit the tree was taken from.
	Commit string `yaml:"commit"`
	// Published is the publish commit that last changed the skill's folder, when the history
	// shows one.
	Published string `yaml:"published,omitempty"`
	// Approvers are the people whose approvals published it, in order.
	Approvers []string `yaml:"approvers,omitempty"`
	// Keys are the fingerprints of the keys of the approvals that the project's trust:
	// verified, when the sync file has one.
	Keys []string `yaml:"keys,omitempty"`
}

// Skill returns the locked skill called name.
func (l *Lock) Skill(name string) (LockedSkill, bool) {
	i, ok := slices.BinarySearchFunc(l.Skills, name, func(s LockedSkill, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return LockedSkill{}, false
	}
	return l.Skills[i], true
}

// dir is the skill's folder in the repository, whose skills folder is prefix.
func (s LockedSkill) dir(prefix string) string {
	if s.Folder != "" {
		return path.Join(prefix, s.Folder)
	}
	return path.Join(prefix, s.Name)
}

// Marshal renders the lock deterministically: the same lock gives the same bytes.
func (l *Lock) Marshal() ([]byte, error) {
	c := *l
	c.Version = LockVersion
	c.Targets = slices.Clone(l.Targets)
	slices.SortFunc(c.Targets, func(a, b LockTarget) int { return strings.Compare(a.Dir, b.Dir) })
	c.Skills = slices.Clone(l.Skills)
	slices.SortFunc(c.Skills, func(a, b LockedSkill) int { return strings.Compare(a.Name, b.Name) })
	var b bytes.Buffer
	b.WriteString(lockHeader)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteLock writes l to file atomically.
func WriteLock(file string, l *Lock) error {
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	return atomicfile.Write(file, data, atomicfile.Options{Perm: 0o644})
}

// ParseLock reads a lock strictly: an unknown key, another version, a malformed id, name or
// folder, or a skill listed twice is an error naming file.
func ParseLock(data []byte, file string) (*Lock, error) {
	var l Lock
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&l); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty; %s", file, lockStartOver)
		}
		return nil, fmt.Errorf("%s: %s; it is written by skillgit: %s", file, strings.TrimPrefix(err.Error(), "yaml: "), lockStartOver)
	}
	if err := l.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w; %s", file, err, lockStartOver)
	}
	return &l, nil
}

func (l *Lock) validate() error {
	switch {
	case l.Version != LockVersion:
		return fmt.Errorf("version %d; this skillgit reads version %d", l.Version, LockVersion)
	case l.Repository == "":
		return errors.New("repository: is missing")
	case l.Channel != "main" && l.Channel != "canary":
		return fmt.Errorf("channel: %q is not one of main, canary", l.Channel)
	case !lifecycle.IsCommitID(l.Commit):
		return fmt.Errorf("commit: %q is not a full commit id", l.Commit)
	case l.Branch != "" && !policy.ValidBranchName(l.Branch):
		return fmt.Errorf("branch: %q is not a branch name", l.Branch)
	}
	if strings.ContainsAny(l.Profile, "/\\\n\r") {
		return fmt.Errorf("profile: %q is not a profile name", l.Profile)
	}
	for i, n := range l.Select {
		if err := catalog.CheckSkillName(n); err != nil {
			return fmt.Errorf("select: %w", err)
		}
		if i > 0 && l.Select[i-1] >= n {
			return fmt.Errorf("select: %s is out of order or listed twice", n)
		}
	}
	for _, t := range l.Targets {
		if err := checkLockDir(t.Dir); err != nil {
			return err
		}
	}
	return l.validateSkills()
}

func (l *Lock) validateSkills() error {
	for i, s := range l.Skills {
		if err := catalog.CheckSkillName(s.Name); err != nil {
			return fmt.Errorf("skills: %w", err)
		}
		if i > 0 && l.Skills[i-1].Name >= s.Name {
			return fmt.Errorf("skills: %s is out of order or listed twice", s.Name)
		}
		for _, id := range []string{s.Tree, s.Commit} {
			if !lifecycle.IsCommitID(id) {
				return fmt.Errorf("skills: %s: %q is not a full object id", s.Name, id)
			}
		}
		if s.Folder != "" && (!fs.ValidPath(s.Folder) || s.Folder == s.Name || path.Base(s.Folder) != s.Name || strings.Contains(s.Folder, `\`)) {
			return fmt.Errorf("skills: %s: folder: %q is not a folder named %s below the skills folder", s.Name, s.Folder, s.Name)
		}
		if s.Published != "" && !lifecycle.IsCommitID(s.Published) {
			return fmt.Errorf("skills: %s: published: %q is not a full commit id", s.Name, s.Published)
		}
	}
	return nil
}

// checkLockDir accepts a folder relative to the project that stays inside it.
func checkLockDir(d string) error {
	if d == "" || path.IsAbs(d) || strings.Contains(d, `\`) || path.Clean(d) != d || d == ".." || strings.HasPrefix(d, "../") {
		return fmt.Errorf("targets: %q is not a folder inside the project", d)
	}
	return nil
}

// ReadLock reads the lock at file; it reports false, with no error, when there is none.
func ReadLock(file string) (*Lock, bool, error) {
	data, _, err := boundedfile.Read(file, maxLockFileSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, false, nil
	case errors.Is(err, boundedfile.ErrNotRegular):
		return nil, false, fmt.Errorf("%s: not a regular file (a link or a folder); %s", file, lockStartOver)
	case errors.Is(err, boundedfile.ErrTooLarge):
		return nil, false, fmt.Errorf("%s: larger than %d MiB; %s", file, maxLockFileSize>>20, lockStartOver)
	case err != nil:
		return nil, false, err
	}
	l, err := ParseLock(data, file)
	return l, err == nil, err
}
