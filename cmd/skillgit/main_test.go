package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillgit/skillgit/internal/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillgit": func() {
			os.Exit(Main(os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
		},
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the real binary, with a
// home folder and git configuration of their own.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Setup:               hermetic,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"jsonget": jsonget, "openskills": openskills, "githttps": githttps, "gitssh": gitssh},
		UpdateScripts:       os.Getenv("SKILLGIT_UPDATE_SCRIPTS") == "1",
	})
}

// skillgitCommand is the skillgit command the test binary provides (see TestMain), the real
// CLI in a folder of its own on PATH, where hooks and a shell started by a test find it.
func skillgitCommand(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("skillgit")
	if err != nil {
		t.Fatalf("the skillgit command of the test binary: %v", err)
	}
	return p
}

// hermetic points HOME, XDG folders and git's global config into the script's work folder.
func hermetic(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, ".home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	cfg := "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"
	if err := os.WriteFile(gitconfig, []byte(cfg), 0o644); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"GIT_CONFIG_GLOBAL": gitconfig, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_DATE": "", "GIT_COMMITTER_DATE": "", "NO_COLOR": "1",
		"SKILLGIT_SKIP_SECURITY_AUDIT": "",
	} {
		env.Setenv(k, v)
	}
	return nil
}

// jsonget FIELD FILE VAR sets VAR to the value at FIELD (keys and list indexes joined by dots) of the JSON
// document in FILE, which may be stdout or stderr of the last command.
func jsonget(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonget FIELD FILE VAR")
	}
	var v any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &v))
	for _, key := range strings.Split(args[0], ".") {
		var ok bool
		switch c := v.(type) {
		case map[string]any:
			v, ok = c[key]
		case []any:
			i, err := strconv.Atoi(key)
			if ok = err == nil && i >= 0 && i < len(c); ok {
				v = c[i]
			}
		}
		if !ok {
			ts.Fatalf("jsonget: %s: no field %q", args[1], args[0])
		}
	}
	ts.Setenv(args[2], fmt.Sprint(v))
}

// githttps BASE USER:PASSWORD... serves the repositories below BASE with git http-backend
// over HTTPS on a loopback port, to those accounts only, until the script ends. It sets
// GITHTTPS_URL (https://127.0.0.1:PORT), GITHTTPS_HOST (127.0.0.1:PORT), GITHTTPS_LOG (a
// file with each request's user and status) and GIT_SSL_CAINFO (the server's certificate).
func githttps(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: githttps BASE USER:PASSWORD...")
	}
	accounts := map[string]string{}
	for _, a := range args[1:] {
		user, pass, ok := strings.Cut(a, ":")
		if !ok || pass == "" {
			ts.Fatalf("githttps: %q is not USER:PASSWORD", a)
		}
		accounts[user] = pass
	}
	dir := ts.MkAbs(".githttps")
	ts.Check(os.MkdirAll(dir, 0o755))
	srv, err := testenv.NewGitHTTPS(ts.MkAbs(args[0]), dir, accounts)
	ts.Check(err)
	ts.Defer(srv.Close)
	ts.Setenv("GITHTTPS_URL", srv.URL)
	ts.Setenv("GITHTTPS_HOST", strings.TrimPrefix(srv.URL, "https://"))
	ts.Setenv("GITHTTPS_LOG", srv.Log)
	ts.Setenv("GIT_SSL_CAINFO", srv.CAFile)
}

// gitssh BASE USER PUBKEYFILE serves the repositories below BASE over SSH on a loopback
// port, to USER signed in with the key of PUBKEYFILE, until the script ends. It sets
// GITSSH_PORT and GITSSH_KNOWN_HOSTS, the server's line for a known_hosts file.
func gitssh(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gitssh BASE USER PUBKEYFILE")
	}
	srv, err := testenv.NewGitSSH(ts.MkAbs(args[0]), args[1], ts.ReadFile(args[2]))
	ts.Check(err)
	ts.Defer(srv.Close)
	ts.Setenv("GITSSH_PORT", strconv.Itoa(srv.Port))
	ts.Setenv("GITSSH_KNOWN_HOSTS", srv.KnownHosts)
}

// openskills ARGS... runs the openskills CLI that SKILLGIT_OPENSKILLS names, with the
// script's environment and folder. scripts/test.sh installs it (openskills 1.5.0) and sets
// the variable; without it the script fails.
func openskills(ts *testscript.TestScript, neg bool, args []string) {
	bin := os.Getenv("SKILLGIT_OPENSKILLS")
	if bin == "" {
		ts.Fatalf("openskills: SKILLGIT_OPENSKILLS is not set; run scripts/test.sh, which installs openskills 1.5.0 and sets it, or install it with npm and point the variable at node_modules/.bin/openskills")
	}
	err := ts.Exec(bin, args...)
	if err != nil && !neg {
		ts.Fatalf("openskills %s: %v", strings.Join(args, " "), err)
	}
	if err == nil && neg {
		ts.Fatalf("openskills %s: unexpected success", strings.Join(args, " "))
	}
}
