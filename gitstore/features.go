package gitstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// extensionAdvice says, per repository extension, what it is and how to
// get rid of it. go-git v5 refuses every extension except the no-ops.
var extensionAdvice = map[string]string{
	"objectformat":    "SHA-256 object format (extensions.objectFormat); only SHA-1 repositories are supported: keep skills in a repository made with `git init --object-format=sha1`",
	"worktreeconfig":  "per-worktree config (extensions.worktreeConfig, set by `git sparse-checkout`); run `git sparse-checkout disable` and `git config --unset extensions.worktreeConfig`",
	"refstorage":      "reftable ref storage (extensions.refStorage); convert it with `git refs migrate --ref-format=files`",
	"partialclone":    "partial clone (extensions.partialClone); objects may be missing: use a full clone made without --filter",
	"preciousobjects": "precious objects (extensions.preciousObjects); remove it with `git config --unset extensions.preciousObjects`",
}

// checkSupported reports, as ErrUnsupported, repository features that
// go-git v5 would fail on later with a less helpful message.
func checkSupported(loc location) error {
	cfg, err := ReadConfigFile(filepath.Join(loc.commonDir, "config"))
	if errors.Is(err, fs.ErrNotExist) {
		cfg = format.New()
	} else if err != nil {
		return err
	}
	if feature := unsupportedConfig(cfg); feature != "" {
		return unsupported(loc.gitDir, feature)
	}
	if loc.worktree == "" {
		return nil
	}
	feature, err := unsupportedIndex(loc.gitDir)
	if err != nil {
		return err
	}
	if feature != "" {
		return unsupported(loc.gitDir, feature)
	}
	return nil
}

func unsupported(path, feature string) error {
	return fmt.Errorf("%s: %w: %s", path, ErrUnsupported, feature)
}

// unsupportedConfig returns the first unsupported feature the config
// turns on, or "".
func unsupportedConfig(cfg *format.Config) string {
	if v, ok := configValue(cfg, "core", "", "repositoryformatversion"); ok {
		if v = strings.TrimSpace(v); v != "0" && v != "1" {
			return fmt.Sprintf("repository format version %q (core.repositoryFormatVersion); only versions 0 and 1 are supported", v)
		}
	}
	if cfg.HasSection("extensions") {
		for _, opt := range cfg.Section("extensions").Options {
			if msg := extensionProblem(opt.Key, opt.Value); msg != "" {
				return msg
			}
		}
	}
	if configBool(cfg, "index", "sparse") {
		return "sparse index (index.sparse); run `git sparse-checkout disable`"
	}
	return ""
}

func extensionProblem(key, value string) string {
	name := strings.ToLower(key)
	switch {
	case name == "noop" || name == "noop-v1":
		return ""
	case name == "objectformat" && strings.EqualFold(strings.TrimSpace(value), "sha1"):
		return ""
	case name == "worktreeconfig":
		if b, known := parseGitBool(value); known && !b {
			return ""
		}
	}
	if advice, ok := extensionAdvice[name]; ok {
		return advice
	}
	return fmt.Sprintf("repository extension extensions.%s; use a repository without it", key)
}

// unsupportedIndex looks at the index file for features this package
// cannot read: versions other than 2-4 and a missing checksum
// (index.skipHash). A split index is read with its shared index.
func unsupportedIndex(gitDir string) (string, error) {
	path := filepath.Join(gitDir, "index")
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return indexFeature(f, fi.Size(), gitDir)
}

func indexFeature(f *os.File, size int64, gitDir string) (string, error) {
	var head [12]byte
	var tail [20]byte
	if size < int64(len(head)+len(tail)) {
		return "", nil
	}
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return "", fmt.Errorf("%s: reading index: %w", gitDir, err)
	}
	if _, err := f.ReadAt(tail[:], size-int64(len(tail))); err != nil {
		return "", fmt.Errorf("%s: reading index: %w", gitDir, err)
	}
	if string(head[:4]) != "DIRC" {
		return "", nil
	}
	if v := binary.BigEndian.Uint32(head[4:8]); v < 2 || v > 4 {
		return fmt.Sprintf("index format version %d; only versions 2 to 4 are supported: run `git update-index --index-version 2`", v), nil
	}
	if tail == [20]byte{} {
		return "index without checksum (index.skipHash, also set by feature.manyFiles); run `git config index.skipHash false` and `git update-index --force-write-index`", nil
	}
	return "", nil
}
