package policy

import (
	"errors"
	"fmt"
)

// The steps of a task that an orchestrator chooses skills for; each has its own limit.
const (
	StepImplementation = "implementation"
	StepReview         = "review"
)

// The limits a step has when .skillgit.yaml does not set them, and the largest it may set.
const (
	DefaultImplementationLimit = 2
	DefaultReviewLimit         = 1
	MaxSelectionLimit          = 100
)

// ErrUnknownStep reports a step that is neither StepImplementation nor StepReview.
var ErrUnknownStep = errors.New("unknown step; use implementation or review")

// SelectionConfig sets how many skills each step of a task gets. A field left out has its
// default; pointers tell a field left out from one set to 0, which is an error.
type SelectionConfig struct {
	Implementation *int `yaml:"implementation,omitempty"`
	Review         *int `yaml:"review,omitempty"`
}

// StepLimit returns how many skills step gets under c. A nil c, as outside a repository,
// gives the defaults.
func StepLimit(c *Config, step string) (int, error) {
	var set *int
	def := 0
	switch step {
	case StepImplementation:
		def = DefaultImplementationLimit
		if c != nil {
			set = c.Selection.Implementation
		}
	case StepReview:
		def = DefaultReviewLimit
		if c != nil {
			set = c.Selection.Review
		}
	default:
		return 0, fmt.Errorf("step %q: %w", step, ErrUnknownStep)
	}
	if set != nil {
		return *set, nil
	}
	return def, nil
}

func (s SelectionConfig) validate() error {
	for _, f := range []struct {
		key string
		v   *int
	}{{"implementation", s.Implementation}, {"review", s.Review}} {
		if v := f.v; v != nil && (*v < 1 || *v > MaxSelectionLimit) {
			return fmt.Errorf("selection.%s is %d; it must be between 1 and %d", f.key, *v, MaxSelectionLimit)
		}
	}
	return nil
}
