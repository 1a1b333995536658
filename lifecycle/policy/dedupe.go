package policy

import "fmt"

// DefaultDedupeThreshold is the overlap score from which a candidate is marked a likely
// duplicate when .skillgit.yaml sets no dedupe.threshold.
const DefaultDedupeThreshold = 0.6

// DedupeConfig says when a candidate that overlaps a published skill or an open candidate is
// marked a likely duplicate.
type DedupeConfig struct {
	// Threshold is the overlap score, 0 to 1, from which a candidate is a likely duplicate.
	Threshold *float64 `yaml:"threshold,omitempty"`
}

// ThresholdOrDefault returns the configured threshold, or DefaultDedupeThreshold.
func (d DedupeConfig) ThresholdOrDefault() float64 {
	if d.Threshold == nil {
		return DefaultDedupeThreshold
	}
	return *d.Threshold
}

func (d DedupeConfig) validate() error {
	if t := d.Threshold; t != nil && (*t < 0 || *t > 1 || *t != *t) {
		return fmt.Errorf("dedupe.threshold is %v; it must be between 0 and 1", *t)
	}
	return nil
}
