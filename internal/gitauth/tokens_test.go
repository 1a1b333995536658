package gitauth

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/skillgit/skillgit/internal/testenv"
)

// allTokenVars are cleared before each case, so that the machine's own do not count.
var allTokenVars = []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_HOST", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
	"GITLAB_TOKEN", "GITLAB_HOST", "CI_JOB_TOKEN", "CI_SERVER_HOST", "CI_SERVER_PORT",
	"BITBUCKET_TOKEN", "BITBUCKET_APP_PASSWORD", "BITBUCKET_USERNAME", "AZURE_DEVOPS_EXT_PAT", "SYSTEM_ACCESSTOKEN", "GIT_SSL_CAINFO"}

func TestTokenGoesOnlyToItsHost(t *testing.T) {
	tests := []struct {
		name string
		url  string
		env  map[string]string
		// want is the variable whose token is sent, and user its user name; "" for none.
		want, user string
	}{
		{"github", "https://github.com/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "GITHUB_TOKEN", "x-access-token"},
		{"gh first", "https://GitHub.com/t/s", map[string]string{"GITHUB_TOKEN": "g1", "GH_TOKEN": "g2"}, "GH_TOKEN", "x-access-token"},
		{"github port 443", "https://github.com:443/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "GITHUB_TOKEN", "x-access-token"},
		{"github other port", "https://github.com:8443/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "", ""},
		{"github over http", "http://github.com/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "", ""},
		{"github look-alike", "https://github.com.example.net/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "", ""},
		{"github subdomain", "https://gist.github.com/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "", ""},
		{"github token at gitlab", "https://gitlab.com/t/s", map[string]string{"GITHUB_TOKEN": "g1"}, "", ""},
		{"github over ssh", "git@github.com:t/s.git", map[string]string{"GITHUB_TOKEN": "g1", "SSH_AUTH_SOCK": "", "SSH_KNOWN_HOSTS": "/nonexistent"}, "", ""},
		{"enterprise", "https://git.corp.example/t/s", map[string]string{"GH_HOST": "git.corp.example", "GH_ENTERPRISE_TOKEN": "e1", "GITHUB_TOKEN": "g1"}, "GH_ENTERPRISE_TOKEN", "x-access-token"},
		{"enterprise elsewhere", "https://evil.example/t/s", map[string]string{"GH_HOST": "git.corp.example", "GH_ENTERPRISE_TOKEN": "e1"}, "", ""},
		{"gitlab", "https://gitlab.com/t/s", map[string]string{"GITLAB_TOKEN": "l1"}, "GITLAB_TOKEN", "oauth2"},
		{"gitlab host", "https://gitlab.corp.example/t/s", map[string]string{"GITLAB_HOST": "https://gitlab.corp.example/", "GITLAB_TOKEN": "l1"}, "GITLAB_TOKEN", "oauth2"},
		{"gitlab host over http", "https://gitlab.corp.example/t/s", map[string]string{"GITLAB_HOST": "http://gitlab.corp.example", "GITLAB_TOKEN": "l1"}, "", ""},
		{"gitlab elsewhere", "https://evil.example/t/s", map[string]string{"GITLAB_HOST": "gitlab.corp.example", "GITLAB_TOKEN": "l1"}, "", ""},
		{"job token", "https://gitlab.corp.example:8443/t/s", map[string]string{"CI_SERVER_HOST": "gitlab.corp.example", "CI_SERVER_PORT": "8443", "CI_JOB_TOKEN": "j1"}, "CI_JOB_TOKEN", "gitlab-ci-token"},
		{"job token other port", "https://gitlab.corp.example/t/s", map[string]string{"CI_SERVER_HOST": "gitlab.corp.example", "CI_SERVER_PORT": "8443", "CI_JOB_TOKEN": "j1"}, "", ""},
		{"job token without host", "https://gitlab.com/t/s", map[string]string{"CI_JOB_TOKEN": "j1"}, "", ""},
		{"bitbucket", "https://bitbucket.org/t/s.git", map[string]string{"BITBUCKET_TOKEN": "b1"}, "BITBUCKET_TOKEN", "x-token-auth"},
		{"bitbucket app password", "https://bitbucket.org/t/s.git", map[string]string{"BITBUCKET_APP_PASSWORD": "b2", "BITBUCKET_USERNAME": "ann"}, "BITBUCKET_APP_PASSWORD", "ann"},
		{"bitbucket app password, no user", "https://bitbucket.org/t/s.git", map[string]string{"BITBUCKET_APP_PASSWORD": "b2"}, "", ""},
		{"azure", "https://org@dev.azure.com/org/p/_git/s", map[string]string{"AZURE_DEVOPS_EXT_PAT": "a1"}, "AZURE_DEVOPS_EXT_PAT", "pat"},
		{"azure old host", "https://org.visualstudio.com/p/_git/s", map[string]string{"AZURE_DEVOPS_EXT_PAT": "a1"}, "AZURE_DEVOPS_EXT_PAT", "pat"},
		{"azure look-alike", "https://org.visualstudio.com.example.net/p/_git/s", map[string]string{"AZURE_DEVOPS_EXT_PAT": "a1"}, "", ""},
		{"azure pipeline", "https://dev.azure.com/org/p/_git/s", map[string]string{"SYSTEM_ACCESSTOKEN": "a2"}, "SYSTEM_ACCESSTOKEN", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for _, v := range allTokenVars {
				env[v] = ""
			}
			for k, v := range tt.env {
				env[k] = v
			}
			testenv.Hermetic(t, env)
			a := For(tt.url)
			if a.source != tt.want {
				t.Fatalf("For(%q) takes the token of %q, want %q", tt.url, a.source, tt.want)
			}
			switch m := a.method.(type) {
			case *http.BasicAuth:
				if m.Username != tt.user || m.Password != tt.env[tt.want] {
					t.Errorf("sends %s:%s, want %s:%s", m.Username, m.Password, tt.user, tt.env[tt.want])
				}
			case *http.TokenAuth:
				if m.Token != tt.env[tt.want] || tt.user != "" {
					t.Errorf("sends bearer %s, want %s:%s", m.Token, tt.user, tt.env[tt.want])
				}
			case nil:
				if tt.want != "" {
					t.Errorf("sends nothing")
				}
			}
		})
	}
}
