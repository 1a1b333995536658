package hooks

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"text/template"
)

// Marker is the line that identifies a hook as skillgit's shim.
const Marker = "# skillgit-hook-shim v1"

// markerPrefix matches the marker of every version of the shim.
const markerPrefix = "# skillgit-hook-shim "

// stdinHooks are the hooks that git feeds ref updates on standard input.
var stdinHooks = map[string]bool{PrePush: true, PreReceive: true}

var shimTemplate = template.Must(template.New("shim").Parse(`#!/bin/sh
{{.Marker}}
# Runs ` + "`skillgit hook {{.Hook}}`" + `. Remove it with ` + "`skillgit hooks uninstall`" + `, which puts back
# the hook that was here before (kept meanwhile as {{.Hook}}{{.Suffix}}, and run first).
hook={{.Hook}}
{{- if .Exe}}
skillgit={{.Exe}}
if [ ! -x "$skillgit" ]; then
	skillgit=$(command -v skillgit) || {
		echo "skillgit: the $hook hook cannot run: "{{.Exe}}" is gone and skillgit is not on PATH; install skillgit, or remove the hook with 'skillgit hooks uninstall'" >&2
		exit 1
	}
fi
{{- else}}
skillgit=$(command -v skillgit) || {
	echo "skillgit: the $hook hook cannot run: skillgit is not on PATH; install skillgit, or remove the hook with 'skillgit hooks uninstall'" >&2
	exit 1
}
{{- end}}
chained=$(dirname -- "$0")/$hook{{.Suffix}}
if [ ! -x "$chained" ]; then
	exec "$skillgit" hook "$hook" "$@"
fi
{{- if .Stdin}}
input=$(mktemp "${TMPDIR:-/tmp}/skillgit-$hook.XXXXXX") || exit 1
trap 'rm -f "$input"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cat >"$input" || exit 1
"$chained" "$@" <"$input" || exit $?
"$skillgit" hook "$hook" "$@" <"$input"
exit $?
{{- else}}
"$chained" "$@" || exit $?
exec "$skillgit" hook "$hook" "$@"
{{- end}}
`))

// shim returns the script installed as hook name, running the program exe, or skillgit
// from PATH when exe is empty.
func shim(name, exe string) []byte {
	var b bytes.Buffer
	data := struct {
		Marker, Hook, Suffix, Exe string
		Stdin                     bool
	}{Marker, name, ChainedSuffix, "", stdinHooks[name]}
	if exe != "" {
		data.Exe = shellQuote(exe)
	}
	if err := shimTemplate.Execute(&b, data); err != nil {
		// The template and its data are fixed: a failure is a bug here.
		panic("hooks: shim template: " + err.Error())
	}
	return b.Bytes()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxMarkerLines is how far into a hook the marker is looked for.
const maxMarkerLines = 5

// isShim reports whether the file at path is skillgit's shim: one of its first lines is the
// marker. A file that cannot be read is not.
func isShim(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 4096))
	for i := 0; i < maxMarkerLines && sc.Scan(); i++ {
		if strings.HasPrefix(strings.TrimRight(sc.Text(), "\r"), markerPrefix) {
			return true
		}
	}
	return false
}
