//go:build !cgo

package codeflow

import (
	"errors"
	"testing"
)

// TestWithoutParsers checks the fallback of a build without cgo: nothing
// is parsed, and Analyze says so rather than reporting no flows.
func TestWithoutParsers(t *testing.T) {
	if Available() {
		t.Fatal("Available() is true in a build without cgo")
	}
	flows, err := Analyze([]Unit{{Lang: Python, Code: []byte("import os\nos.system('x')\n")}})
	if !errors.Is(err, ErrUnavailable) || flows != nil {
		t.Fatalf("Analyze = %v, %v; want no flows and ErrUnavailable", flows, err)
	}
}
