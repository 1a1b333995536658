package gitauth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// ErrCredentialsInURL reports a URL that holds a password or a token: skillgit would write
// it into every file that records the URL, so it refuses the URL instead.
var ErrCredentialsInURL = errors.New("the URL holds a password or token")

// tokenPrefixes begin the tokens of the hosts whose variables skillgit reads, and a few
// more, so that a token given as a URL's user name is known as one.
var tokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
	"glpat-", "gloas-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "ATBB", "ATCTT", "ATATT"}

// longSecret is a user name that is too long and too plain to be a person's: a token.
var longSecret = lazyregexp.New(`^[A-Za-z0-9_\-.~+/=]{32,}$`)

// Check refuses a URL that holds credentials: a password (user:password@), or, over http
// and https, a user name that is a token. The error names the variables and the helpers
// to use for the URL's host instead, and shows the URL without its secret.
func Check(rawURL string) error {
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil || !hasSecret(ep) {
		return nil
	}
	return fmt.Errorf("%s: %w, which would be written into every file that records the URL; remove it and %s",
		Redact(rawURL), ErrCredentialsInURL, advice(ep))
}

// hasSecret reports whether the endpoint carries a password or a token as its user.
func hasSecret(ep *transport.Endpoint) bool {
	switch {
	case ep.Password != "":
		return true
	case ep.Protocol == "ssh":
		// An scp-like address reads user:password@host:path with the password in the user.
		return strings.Contains(ep.User, ":")
	}
	return looksLikeToken(ep.User)
}

// looksLikeToken reports whether a user name is a token rather than an account's name.
func looksLikeToken(user string) bool {
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(user, p) {
			return true
		}
	}
	return longSecret().MatchString(user)
}

// advice says how to give credentials to the endpoint's host without a secret in the URL.
func advice(ep *transport.Endpoint) string {
	if ep.Protocol == "ssh" {
		return "use ssh-agent (`ssh-add KEY`) or name the key with IdentityFile in ~/.ssh/config"
	}
	vars := tokenVarNames(hostPort(ep))
	helper := "store the credentials with a git credential helper (`git config --global credential.helper store`, or your platform's git-credential-manager)"
	if len(vars) == 0 {
		return helper
	}
	return "set " + orList(vars) + ", or " + helper
}

// Redact returns the URL with a password, or a user name that is a token, replaced by ***;
// text that is no URL is returned as it is.
func Redact(rawURL string) string {
	if i := strings.Index(rawURL, "://"); i >= 0 {
		return redactAuthority(rawURL, i+3)
	}
	// user:password@host:path, as scp writes it.
	at := strings.IndexByte(rawURL, '@')
	if at < 0 || strings.ContainsAny(rawURL[:at], "/") {
		return rawURL
	}
	if user := rawURL[:at]; strings.Contains(user, ":") || looksLikeToken(user) {
		return "***" + rawURL[at:]
	}
	return rawURL
}

// redactAuthority hides the secret in the user part of the authority that starts at start.
func redactAuthority(rawURL string, start int) string {
	end := len(rawURL)
	if j := strings.IndexAny(rawURL[start:], "/?#"); j >= 0 {
		end = start + j
	}
	at := strings.LastIndexByte(rawURL[start:end], '@')
	if at < 0 {
		return rawURL
	}
	userinfo := rawURL[start : start+at]
	user, _, hasPass := strings.Cut(userinfo, ":")
	decoded, err := url.PathUnescape(user)
	if err != nil {
		decoded = user
	}
	switch {
	case looksLikeToken(decoded):
		userinfo = "***"
	case hasPass:
		userinfo = user + ":***"
	default:
		return rawURL
	}
	return rawURL[:start] + userinfo + rawURL[start+at:]
}

// orList joins names as "A, B or C".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
