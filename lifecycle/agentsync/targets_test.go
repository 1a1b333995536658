package agentsync

import (
	"slices"
	"strings"
	"testing"
)

// TestCover checks that the folders chosen for agents serve every agent once where they can,
// and that an agent reading two chosen folders is warned about.
func TestCover(t *testing.T) {
	a := agentTarget{id: "a", install: "/x", reads: []string{"/x", "/y"}}
	b := agentTarget{id: "b", install: "/y", reads: []string{"/y"}}
	tests := []struct {
		name   string
		chosen []Target
		agents []agentTarget
		want   []Target
		warns  int
	}{
		{"shared folder", nil, []agentTarget{a, b}, []Target{{Label: "a,b", Dir: "/y"}}, 0},
		{"one agent", nil, []agentTarget{a}, []Target{{Label: "a", Dir: "/x"}}, 0},
		{"given folder serves", []Target{{Label: "y", Dir: "/y"}}, []agentTarget{a, b}, []Target{{Label: "y", Dir: "/y"}}, 0},
		{"read twice", []Target{{Label: "x", Dir: "/x"}}, []agentTarget{a, b}, []Target{{Label: "x", Dir: "/x"}, {Label: "a,b", Dir: "/y"}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cover(slices.Clone(tt.chosen), tt.agents)
			if !slices.Equal(got, tt.want) {
				t.Errorf("cover = %+v, want %+v", got, tt.want)
			}
			warns := doubleReads(got, tt.agents)
			if len(warns) != tt.warns {
				t.Errorf("doubleReads = %q, want %d warning(s)", warns, tt.warns)
			}
			for _, w := range warns {
				if !strings.Contains(w, "agent a reads /x and /y") {
					t.Errorf("warning %q does not name agent a and both folders", w)
				}
			}
		})
	}
}
