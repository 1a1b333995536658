package testenv

import (
	"os"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// StopAfterTemp sets *hook, a package's hook called with each temporary folder it makes, so
// that the process stops, as a signal does, just after the first one is made: every registered
// file is removed then. It reports the folder, and fails the test when the folder outlives
// that, as one not registered would. The hook is cleared when t ends.
func StopAfterTemp(t testing.TB, hook *func(path string)) *string {
	t.Helper()
	var made string
	*hook = func(path string) {
		if made != "" {
			return
		}
		made = path
		interrupt.Cleanup()
		if _, err := os.Lstat(path); err == nil {
			t.Errorf("%s outlived interrupt.Cleanup: it was not registered", path)
		}
	}
	t.Cleanup(func() { *hook = nil })
	return &made
}

// EntriesWith lists the entries of dir whose names start with prefix; a missing dir has none.
func EntriesWith(t testing.TB, dir, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}
