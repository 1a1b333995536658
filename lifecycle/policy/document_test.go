package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSetKey(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"replaces", "# team policy\nmode: manual # for now\nskills_dir: skills\n", "# team policy\nmode: assisted # for now\nskills_dir: skills\n"},
		{"adds", "skills_dir: skills\n", "skills_dir: skills\nmode: assisted\n"},
		{"replaces a non-scalar", "mode: [a]\n", "mode: assisted\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetKey([]byte(tt.in), "mode", "assisted")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("SetKey (-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []string{"", "- a\n", "mode: [\n"} {
		if _, err := SetKey([]byte(bad), "mode", "assisted"); err == nil {
			t.Errorf("SetKey(%q): no error", bad)
		}
	}
}

func TestFlatten(t *testing.T) {
	got := Flatten([]byte("mode: manual\naudit:\n  fail_on: high\n  installers: [a, b]\n"))
	want := map[string]string{"mode": "manual", "audit.fail_on": "high", "audit.installers": "[a, b]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Flatten (-want +got):\n%s", diff)
	}
	if got := Flatten([]byte("mode: [\n")); len(got) != 0 {
		t.Errorf("Flatten of a broken document = %v, want no keys", got)
	}
}

func TestPolicyPaths(t *testing.T) {
	tests := []struct {
		allow string
		want  []string
	}{
		{".skillgit/audit-allow.yaml", []string{ConfigFile, Dir}},
		{"policy/allow.yaml", []string{ConfigFile, Dir, "policy/allow.yaml"}},
		{ConfigFile, []string{ConfigFile, Dir}},
		{".skillgit-other/allow.yaml", []string{ConfigFile, Dir, ".skillgit-other/allow.yaml"}},
	}
	for _, tt := range tests {
		c := DefaultConfig("main")
		c.Audit.Allow = tt.allow
		if diff := cmp.Diff(tt.want, c.PolicyPaths()); diff != "" {
			t.Errorf("PolicyPaths with allow %q (-want +got):\n%s", tt.allow, diff)
		}
	}
}
