package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSeverity(t *testing.T) {
	tests := []struct {
		sev  Severity
		name string
		risk Risk
	}{
		{Info, "info", RiskLow}, {Low, "low", RiskLow}, {Medium, "medium", RiskMedium},
		{High, "high", RiskHigh}, {Critical, "critical", RiskHigh},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.sev.String(); got != tt.name {
				t.Errorf("String() = %q, want %q", got, tt.name)
			}
			got, err := ParseSeverity(tt.name)
			if err != nil || got != tt.sev {
				t.Errorf("ParseSeverity(%q) = %v, %v", tt.name, got, err)
			}
			if got := tt.sev.Risk(); got != tt.risk {
				t.Errorf("Risk() = %v, want %v", got, tt.risk)
			}
			data, err := json.Marshal(tt.sev)
			if err != nil || string(data) != `"`+tt.name+`"` {
				t.Errorf("Marshal = %s, %v", data, err)
			}
			var back Severity
			if err := json.Unmarshal(data, &back); err != nil || back != tt.sev {
				t.Errorf("Unmarshal = %v, %v", back, err)
			}
		})
	}
	if _, err := ParseSeverity("severe"); err == nil {
		t.Error("ParseSeverity(severe) succeeded")
	}
	if got := Severity(0).String(); got != "severity(0)" {
		t.Errorf("zero Severity String() = %q", got)
	}
	if _, err := Severity(9).MarshalText(); err == nil {
		t.Error("MarshalText of an invalid severity succeeded")
	}
}

func TestSeverityLower(t *testing.T) {
	got := []Severity{Critical.lower(), High.lower(), Medium.lower(), Low.lower(), Info.lower()}
	want := []Severity{High, Medium, Low, Info, Info}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lower (-want +got):\n%s", diff)
	}
}

func TestRisk(t *testing.T) {
	for _, tt := range []struct {
		r    Risk
		name string
	}{{RiskLow, "low"}, {RiskMedium, "medium"}, {RiskHigh, "high"}} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.r.String() != tt.name {
				t.Errorf("String() = %q", tt.r.String())
			}
			got, err := ParseRisk(strings.ToUpper(tt.name))
			if err != nil || got != tt.r {
				t.Errorf("ParseRisk = %v, %v", got, err)
			}
			var back Risk
			text, _ := tt.r.MarshalText()
			if err := back.UnmarshalText(text); err != nil || back != tt.r {
				t.Errorf("round trip = %v, %v", back, err)
			}
		})
	}
	for _, s := range []string{"critical", "Critical"} {
		if got, err := ParseRisk(s); err != nil || got != RiskHigh {
			t.Errorf("ParseRisk(%q) = %v, %v; want high", s, got, err)
		}
	}
	if _, err := ParseRisk("severe"); err == nil {
		t.Error("ParseRisk(severe) succeeded")
	}
}

func TestRiskOf(t *testing.T) {
	tests := []struct {
		name string
		fs   []Finding
		want Risk
	}{
		{"none", nil, RiskLow},
		{"low only", []Finding{{Severity: Low}, {Severity: Info}}, RiskLow},
		{"medium", []Finding{{Severity: Low}, {Severity: Medium}}, RiskMedium},
		{"critical", []Finding{{Severity: Medium}, {Severity: Critical}}, RiskHigh},
		{"suppressed high", []Finding{{Severity: High, Suppressed: "accepted"}, {Severity: Medium}}, RiskMedium},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := riskOf(tt.fs); got != tt.want {
				t.Errorf("riskOf = %v, want %v", got, tt.want)
			}
		})
	}
}
