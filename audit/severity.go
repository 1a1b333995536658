package audit

import (
	"fmt"
	"strings"
)

// Severity ranks a single finding.
type Severity int

// Severities from least to most serious. The zero Severity is invalid.
const (
	Info Severity = iota + 1
	Low
	Medium
	High
	Critical
)

var severityNames = [...]string{Info: "info", Low: "low", Medium: "medium", High: "high", Critical: "critical"}

// String returns the lowercase name of s, such as "high".
func (s Severity) String() string {
	if s < Info || s > Critical {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity returns the Severity named by s, ignoring case.
func ParseSeverity(s string) (Severity, error) {
	for sev := Info; sev <= Critical; sev++ {
		if strings.EqualFold(s, severityNames[sev]) {
			return sev, nil
		}
	}
	return 0, fmt.Errorf("severity %q: unknown; use info, low, medium, high or critical", s)
}

// MarshalText encodes s as its name.
func (s Severity) MarshalText() ([]byte, error) {
	if s < Info || s > Critical {
		return nil, fmt.Errorf("severity %d: out of range", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a severity name.
func (s *Severity) UnmarshalText(text []byte) error {
	v, err := ParseSeverity(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Risk returns the risk tier a finding of severity s gives a change:
// critical and high are RiskHigh, medium is RiskMedium, the rest RiskLow.
func (s Severity) Risk() Risk {
	switch {
	case s >= High:
		return RiskHigh
	case s == Medium:
		return RiskMedium
	default:
		return RiskLow
	}
}

// lower returns the severity one level below s, never below Info.
func (s Severity) lower() Severity {
	if s <= Info {
		return Info
	}
	return s - 1
}

// Risk is the tier of a whole change; it drives the lifecycle: high blocks
// publishing while the audit is on and medium needs a human approval.
type Risk int

// Risk tiers from least to most serious. The zero Risk is RiskLow.
const (
	RiskLow Risk = iota
	RiskMedium
	RiskHigh
)

var riskNames = [...]string{RiskLow: "low", RiskMedium: "medium", RiskHigh: "high"}

// String returns the lowercase name of r, such as "medium".
func (r Risk) String() string {
	if r < RiskLow || r > RiskHigh {
		return fmt.Sprintf("risk(%d)", int(r))
	}
	return riskNames[r]
}

// ParseRisk returns the Risk named by s, ignoring case. "critical", the name of the most
// serious severity that reports show, is RiskHigh: a critical finding makes a change high
// risk, and no tier lies above it.
func ParseRisk(s string) (Risk, error) {
	for r := RiskLow; r <= RiskHigh; r++ {
		if strings.EqualFold(s, riskNames[r]) {
			return r, nil
		}
	}
	if strings.EqualFold(s, Critical.String()) {
		return RiskHigh, nil
	}
	return 0, fmt.Errorf("risk %q: unknown; use low, medium, high or critical (the same as high)", s)
}

// MarshalText encodes r as its name.
func (r Risk) MarshalText() ([]byte, error) {
	if r < RiskLow || r > RiskHigh {
		return nil, fmt.Errorf("risk %d: out of range", int(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText decodes a risk name.
func (r *Risk) UnmarshalText(text []byte) error {
	v, err := ParseRisk(string(text))
	if err != nil {
		return err
	}
	*r = v
	return nil
}
