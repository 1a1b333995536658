package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFrom(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want Info
		str  string
	}{
		{"nothing recorded", nil, Info{Module: "(devel)"}, "(devel)"},
		{"release, no vcs", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}},
			Info{Module: "v1.2.3", Go: "go1.26.0"}, "v1.2.3"},
		{"empty main version", &debug.BuildInfo{}, Info{Module: "(devel)"}, "(devel)"},
		{"work tree, clean", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")},
			Info{Module: "(devel)", Revision: "0123456789ab"}, "(devel) 0123456789ab"},
		{"work tree, dirty", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")},
			Info{Module: "(devel)", Revision: "0123456789ab", Dirty: true}, "(devel) 0123456789ab-dirty"},
		{"stamped pseudo-version, dirty", &debug.BuildInfo{
			Main:     debug.Module{Version: "v1.2.4-0.20261125120000-0123456789ab+dirty"},
			Settings: vcs(rev, "true")},
			Info{Module: "v1.2.4-0.20261125120000-0123456789ab+dirty", Revision: "0123456789ab", Dirty: true},
			"v1.2.4-0.20261125120000-0123456789ab-dirty"},
		{"short revision", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}, Settings: vcs("abc", "false")},
			Info{Module: "v1.0.0", Revision: "abc"}, "v1.0.0 abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := From(tt.bi)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("From() mismatch (-want +got):\n%s", d)
			}
			if s := got.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
		})
	}
}

func TestVersionIsNotEmpty(t *testing.T) {
	if v := Version(); v == "" || v == "dev" {
		t.Errorf("Version() = %q", v)
	}
}
