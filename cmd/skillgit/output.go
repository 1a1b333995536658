package main

import (
	"encoding/json"
	"io"
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
