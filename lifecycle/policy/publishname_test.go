package policy

import (
	"strings"
	"testing"
)

func TestNamedPublishBranch(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"parsed", "publish_branch: release\n", "release"},
		{"none named", "skills_dir: skills\n", "main"},
		{"a key this version does not know", "publish_branch: team\nfuture_key: 1\n", "team"},
		{"a mistake elsewhere", "publish_branch: team\nmode: [\n", "main"},
		{"a bad value elsewhere", "publish_branch: team\nmode: reckless\n", "team"},
		{"no mapping", "- a\n- b\n", "main"},
		{"empty", "", "main"},
		{"too large", "publish_branch: team\n#" + strings.Repeat("x", MaxConfigSize), "main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NamedPublishBranch([]byte(tt.data)); got != tt.want {
				t.Errorf("NamedPublishBranch(%q) = %q, want %q", tt.data, got, tt.want)
			}
		})
	}
}
