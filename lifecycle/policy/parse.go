package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

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
	if c, ok := parsed.get(data); ok {
		return c, nil
	}
	c, err := parseConfig(data)
	if err != nil {
		return nil, asConfigError(err)
	}
	parsed.put(data, c)
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
