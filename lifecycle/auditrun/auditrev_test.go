package auditrun

import (
	"strings"
	"testing"
)

func TestParseRevRange(t *testing.T) {
	tests := []struct {
		spec    string
		want    revRange
		wantErr string
	}{
		{spec: "main", want: revRange{head: "main"}},
		{spec: "a..b", want: revRange{base: "a", head: "b"}},
		{spec: "..b", want: revRange{base: "HEAD", head: "b"}},
		{spec: "a..", want: revRange{base: "a", head: "HEAD"}},
		{spec: "origin/main..HEAD~1", want: revRange{base: "origin/main", head: "HEAD~1"}},
		{spec: "a...b", want: revRange{base: "a", head: "b"}},
		{spec: "a...", want: revRange{base: "a", head: "HEAD"}},
		{spec: "a....b", wantErr: "pass REV, A..B or A...B"},
		{spec: "a..b..c", wantErr: "pass REV, A..B or A...B"},
		{spec: "", wantErr: "revision is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := parseRevRange(tc.spec)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("parseRevRange(%q) = %+v, %v; want error containing %q", tc.spec, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("parseRevRange(%q) = %+v, %v; want %+v", tc.spec, got, err, tc.want)
			}
		})
	}
}
