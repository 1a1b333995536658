package policy

import (
	"strings"
	"testing"
)

func TestDedupeThresholdConfig(t *testing.T) {
	if _, err := ParseConfig([]byte("dedupe:\n  threshold: 1.5\n")); err == nil || !strings.Contains(err.Error(), "dedupe.threshold") {
		t.Fatalf("threshold 1.5: %v; want an error naming dedupe.threshold", err)
	}
	cfg, err := ParseConfig([]byte("dedupe:\n  threshold: 0.9\n"))
	if err != nil || cfg.Dedupe.ThresholdOrDefault() != 0.9 {
		t.Fatalf("threshold 0.9: %v, %+v", err, cfg)
	}
	if got := DefaultConfig("main").Dedupe.ThresholdOrDefault(); got != DefaultDedupeThreshold {
		t.Fatalf("default threshold %v", got)
	}
}
