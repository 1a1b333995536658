package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSkillDirs(t *testing.T) {
	at := func(dir string) *Config {
		c := DefaultConfig("main")
		c.SkillsDir = dir
		return c
	}
	tests := []struct {
		name string
		cfgs []*Config
		want []string
	}{
		{"one", []*Config{at("skills")}, []string{"skills"}},
		{"same twice", []*Config{at("skills"), at("skills")}, []string{"skills"}},
		{"moved", []*Config{at("skills"), nil, at("agents/skills"), at("skills")}, []string{"skills", "agents/skills"}},
		{"none", []*Config{nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, SkillDirs(tt.cfgs...)); diff != "" {
				t.Errorf("SkillDirs (-want +got):\n%s", diff)
			}
		})
	}
}
