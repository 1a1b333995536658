package main

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// writeJSON prints v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printResult prints v as JSON when --json is set, else calls text.
func (a *app) printResult(v any, text func(io.Writer) error) error {
	if a.json {
		return writeJSON(a.Out, v)
	}
	return text(a.Out)
}

// wantsJSON reports whether args ask for --json before any "--". It serves errors met before
// the flags were parsed, such as an unknown flag or command, so that they are JSON too.
func wantsJSON(args []string) bool {
	for _, arg := range args {
		if arg == "--" {
			return false
		}
		if arg == "--json" {
			return true
		}
		if v, ok := strings.CutPrefix(arg, "--json="); ok {
			b, err := strconv.ParseBool(v)
			return err == nil && b
		}
	}
	return false
}
