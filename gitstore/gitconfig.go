package gitstore

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// maxConfigSize bounds the git config files this package parses.
const maxConfigSize = 1 << 20

// readSmallFile reads a whole file that must not be larger than limit.
func readSmallFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("file is larger than %d bytes", limit)
	}
	return b, nil
}

// ReadConfigFile parses a git config file of at most 1 MiB. A missing file is an error the
// caller can test with errors.Is(err, fs.ErrNotExist).
func ReadConfigFile(path string) (*format.Config, error) {
	b, err := readSmallFile(path, maxConfigSize)
	if err != nil {
		return nil, err
	}
	return parseConfig(path, b)
}

func parseConfig(path string, b []byte) (*format.Config, error) {
	cfg := format.New()
	if err := format.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return nil, fmt.Errorf("%s: git config is malformed (%v); fix it with `git config --edit`", path, err)
	}
	return cfg, nil
}

// configValue returns the last value of section.key, or of
// section.sub.key when sub is not empty, and whether it is set.
func configValue(cfg *format.Config, section, sub, key string) (string, bool) {
	if cfg == nil || !cfg.HasSection(section) {
		return "", false
	}
	s := cfg.Section(section)
	opts := s.Options
	if sub != "" {
		if !s.HasSubsection(sub) {
			return "", false
		}
		opts = s.Subsection(sub).Options
	}
	if !opts.Has(key) {
		return "", false
	}
	return opts.Get(key), true
}

// configBool reads a git boolean. A key written without a value is true,
// as git has it.
func configBool(cfg *format.Config, section, key string) bool {
	v, ok := configValue(cfg, section, "", key)
	if !ok {
		return false
	}
	b, known := parseGitBool(v)
	return known && b
}

// parseGitBool parses git's spellings of a boolean; known is false for
// anything else.
func parseGitBool(v string) (value, known bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on":
		return true, true
	case "false", "no", "off":
		return false, true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		return n != 0, true
	}
	return false, false
}
