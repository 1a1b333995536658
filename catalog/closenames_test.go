package catalog

import (
	"slices"
	"testing"
)

func TestCloseNames(t *testing.T) {
	known := []string{"pdf-tools", "code-reviewer", "csv-cleaner", "docs", "pdf-tools"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"pdf-tols", []string{"pdf-tools"}},
		{"code-review", []string{"code-reviewer"}},
		{"pdf", []string{"pdf-tools"}},
		{"reviewer", []string{"code-reviewer"}},
		{"dogs", []string{"docs"}},
		{"pdf-tools", []string{}},
		{"weather", []string{}},
		{"do", []string{"docs"}},
		{"xy", []string{}},
	} {
		if got := CloseNames(tc.name, known); !slices.Equal(got, tc.want) {
			t.Errorf("CloseNames(%q) = %q; want %q", tc.name, got, tc.want)
		}
	}
	many := []string{"abcx", "abcy", "abcz", "abcw", "abd"}
	if got, want := CloseNames("abc", many), []string{"abcw", "abcx", "abcy"}; !slices.Equal(got, want) {
		t.Errorf("CloseNames over many = %q; want the three closest, by name on a tie: %q", got, want)
	}
}
