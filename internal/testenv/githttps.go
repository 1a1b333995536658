package testenv

import (
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// GitHTTPS is git http-backend served over TLS on a loopback port, behind basic auth.
type GitHTTPS struct {
	// URL is https://127.0.0.1:PORT; a repository base/NAME is at URL/NAME.
	URL string
	// CAFile holds the server's certificate in PEM, for GIT_SSL_CAINFO.
	CAFile string
	// Log is a file with a line for each request: the user it came with ("-" for none)
	// and the status answered. It never holds a password.
	Log string

	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

// NewGitHTTPS serves every repository below base with git http-backend behind
// net/http/cgi, over TLS on a loopback port, and writes its certificate and log into dir.
// With accounts (user to password), a request without one of them is answered 401; a
// push is taken from any of them. Close stops it.
func NewGitHTTPS(base, dir string, accounts map[string]string) (*GitHTTPS, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	s := &GitHTTPS{CAFile: filepath.Join(dir, "githttps-ca.pem"), Log: filepath.Join(dir, "githttps.log")}
	backend := cgi.Handler{Path: git, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + base, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}, Stderr: io.Discard}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if len(accounts) > 0 && (!ok || accounts[user] == "" || accounts[user] != pass) {
			s.record(user, http.StatusUnauthorized)
			w.Header().Set("WWW-Authenticate", `Basic realm="skills"`)
			http.Error(w, "credentials needed", http.StatusUnauthorized)
			return
		}
		s.record(user, http.StatusOK)
		h := backend
		h.Env = append(append([]string(nil), backend.Env...), "REMOTE_USER="+user)
		h.ServeHTTP(w, r)
	}))
	s.URL = s.srv.URL
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
	if err := os.WriteFile(s.CAFile, cert, 0o644); err != nil {
		s.srv.Close()
		return nil, err
	}
	return s, nil
}

// ServeGitHTTPS is NewGitHTTPS for a test: the server stops when t ends.
func ServeGitHTTPS(t testing.TB, base string, accounts map[string]string) *GitHTTPS {
	t.Helper()
	s, err := NewGitHTTPS(base, t.TempDir(), accounts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// record notes a request's user and status in memory and in the log.
func (s *GitHTTPS) record(user string, status int) {
	if user == "" {
		user = "-"
	}
	line := fmt.Sprintf("%s %d", user, status)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, line)
	if f, err := os.OpenFile(s.Log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, line)
		f.Close()
	}
}

// Seen lists, for each request so far, its user ("-" for none) and the status answered.
func (s *GitHTTPS) Seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// Close stops the server.
func (s *GitHTTPS) Close() { s.srv.Close() }
