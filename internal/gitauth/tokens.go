package gitauth

import (
	"os"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
)

// tokenVar is an environment variable that holds a token, with the user name its host
// expects beside it.
type tokenVar struct {
	name string
	// user is the user name sent with the token; userVar, when set, names the variable
	// that holds it instead.
	user, userVar string
	// bearer sends the token as a bearer token rather than as a password.
	bearer bool
}

// hostTokens names the variables whose tokens go to a host, and only to it.
type hostTokens struct {
	// hosts are host names, with a port when not 443.
	hosts []string
	// suffix, when set, adds every host below that domain.
	suffix string
	// hostVar, when set, names a variable that names one more host (with portVar its port),
	// as the host's own tools read it; the variable declares where its tokens may go.
	hostVar, portVar string
	vars             []tokenVar
}

// tokenHosts are the hosts whose usual token variables skillgit reads, in order.
var tokenHosts = []hostTokens{
	{hosts: []string{"github.com"}, vars: []tokenVar{{name: "GH_TOKEN", user: "x-access-token"}, {name: "GITHUB_TOKEN", user: "x-access-token"}}},
	{hostVar: "GH_HOST", vars: []tokenVar{{name: "GH_ENTERPRISE_TOKEN", user: "x-access-token"}, {name: "GITHUB_ENTERPRISE_TOKEN", user: "x-access-token"}}},
	{hosts: []string{"gitlab.com"}, hostVar: "GITLAB_HOST", vars: []tokenVar{{name: "GITLAB_TOKEN", user: "oauth2"}}},
	{hostVar: "CI_SERVER_HOST", portVar: "CI_SERVER_PORT", vars: []tokenVar{{name: "CI_JOB_TOKEN", user: "gitlab-ci-token"}}},
	{hosts: []string{"bitbucket.org"}, vars: []tokenVar{{name: "BITBUCKET_TOKEN", user: "x-token-auth"}, {name: "BITBUCKET_APP_PASSWORD", userVar: "BITBUCKET_USERNAME"}}},
	{hosts: []string{"dev.azure.com"}, suffix: ".visualstudio.com", vars: []tokenVar{{name: "AZURE_DEVOPS_EXT_PAT", user: "pat"}, {name: "SYSTEM_ACCESSTOKEN", bearer: true}}},
}

// serves reports whether the tokens of h may go to host (host[:port], lower case).
func (h hostTokens) serves(host string) bool {
	for _, x := range h.hosts {
		if host == x {
			return true
		}
	}
	if h.suffix != "" && strings.HasSuffix(host, h.suffix) && !strings.Contains(host, ":") {
		return true
	}
	if h.hostVar == "" {
		return false
	}
	declared := declaredHost(os.Getenv(h.hostVar))
	if p := os.Getenv(h.portVar); h.portVar != "" && p != "" && p != "443" && declared != "" {
		declared += ":" + p
	}
	return declared != "" && host == declared
}

// declaredHost reads a variable that names a host: host[:port], or a URL of it.
func declaredHost(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if s, ok := strings.CutPrefix(v, "https://"); ok {
		v = s
	} else if strings.Contains(v, "://") {
		return "" // tokens go over https only
	}
	v, _, _ = strings.Cut(v, "/")
	return strings.TrimSuffix(v, ":443")
}

// hostPort is the endpoint's host in lower case, with its port unless it is the
// protocol's default.
func hostPort(ep *transport.Endpoint) string {
	host := strings.ToLower(ep.Host)
	if ep.Port == 0 || (ep.Protocol == "https" && ep.Port == 443) || (ep.Protocol == "http" && ep.Port == 80) {
		return host
	}
	return host + ":" + strconv.Itoa(ep.Port)
}

// tokenVarNames lists the variables whose tokens go to host.
func tokenVarNames(host string) []string {
	var names []string
	for _, h := range tokenHosts {
		if h.serves(host) {
			for _, v := range h.vars {
				if v.userVar != "" {
					names = append(names, v.name+" with "+v.userVar)
				} else {
					names = append(names, v.name)
				}
			}
		}
	}
	return names
}

// tokenAuth is the credential of the first token variable set for the endpoint's host,
// with the variable's name and the token; nil when none is set. Tokens go over https only.
func tokenAuth(ep *transport.Endpoint) (transport.AuthMethod, string, string) {
	if ep.Protocol != "https" {
		return nil, "", ""
	}
	host := hostPort(ep)
	for _, h := range tokenHosts {
		if !h.serves(host) {
			continue
		}
		for _, v := range h.vars {
			if m, tok := v.auth(); m != nil {
				return m, v.name, tok
			}
		}
	}
	return nil, "", ""
}

// auth is the credential the variable holds, and its token; nil when the variable (or the
// one of its user) is not set.
func (v tokenVar) auth() (transport.AuthMethod, string) {
	tok := strings.TrimSpace(os.Getenv(v.name))
	if tok == "" {
		return nil, ""
	}
	if v.bearer {
		return &http.TokenAuth{Token: tok}, tok
	}
	user := v.user
	if v.userVar != "" {
		user = strings.TrimSpace(os.Getenv(v.userVar))
	}
	if user == "" {
		return nil, ""
	}
	return &http.BasicAuth{Username: user, Password: tok}, tok
}
