package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestStepLimit(t *testing.T) {
	cfg, err := ParseConfig([]byte("selection:\n  implementation: 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  *Config
		step string
		want int
	}{
		{"nil config implementation", nil, StepImplementation, 2},
		{"nil config review", nil, StepReview, 1},
		{"default config", DefaultConfig("main"), StepReview, 1},
		{"set", cfg, StepImplementation, 4},
		{"unset beside a set one", cfg, StepReview, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StepLimit(tt.cfg, tt.step)
			if err != nil || got != tt.want {
				t.Fatalf("StepLimit = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
	if _, err := StepLimit(nil, "deploy"); !errors.Is(err, ErrUnknownStep) {
		t.Fatalf("StepLimit(deploy) error = %v", err)
	}
}

func TestSelectionConfigErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"selection:\n  implementation: 0\n", "selection.implementation is 0; it must be between 1 and 100"},
		{"selection:\n  review: 101\n", "selection.review is 101"},
		{"selection:\n  review: -1\n", "selection.review is -1"},
		{"selection:\n  planning: 3\n", "planning"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseConfig error = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestSelectionLeftOutOfNewConfig(t *testing.T) {
	if out := string(DefaultConfig("main").Marshal()); strings.Contains(out, "selection") {
		t.Fatalf("a new configuration holds a selection section:\n%s", out)
	}
}
