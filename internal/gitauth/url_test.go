package gitauth

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

func TestCheck(t *testing.T) {
	testenv.Hermetic(t, nil)
	tests := []struct {
		url    string
		secret string // "" when the URL is accepted
		names  string // what the refusal must name
	}{
		{url: "https://github.com/team/skills"},
		{url: "https://alice@dev.azure.com/org/p/_git/skills"},
		{url: "git@github.com:team/skills.git"},
		{url: "ssh://git@host.example:2222/skills.git"},
		{url: "../skills"},
		{url: "/srv/git/skills.git"},
		{url: "file:///srv/git/skills.git"},
		{url: "https://x-access-token:ghp_abc123@github.com/team/skills", secret: "ghp_abc123", names: "GH_TOKEN or GITHUB_TOKEN"},
		{url: "https://ghp_0123456789abcdefghijklmnopqrstuvwxyz@github.com/team/skills", secret: "ghp_0123456789", names: "GH_TOKEN or GITHUB_TOKEN"},
		{url: "https://alice:hunter2@gitlab.com/team/skills.git", secret: "hunter2", names: "GITLAB_TOKEN"},
		{url: "https://a:p%40ssw0rd@bitbucket.org/team/skills.git", secret: "ssw0rd", names: "BITBUCKET_TOKEN or BITBUCKET_APP_PASSWORD with BITBUCKET_USERNAME"},
		{url: "https://u:abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop@dev.azure.com/o/p/_git/r", secret: "abcdefghijklmnop", names: "AZURE_DEVOPS_EXT_PAT or SYSTEM_ACCESSTOKEN"},
		{url: "https://u:pw12345@127.0.0.1:8443/skills", secret: "pw12345", names: "credential helper"},
		{url: "ssh://git:pw12345@host.example/skills.git", secret: "pw12345", names: "ssh-agent"},
		{url: "git:pw12345@host.example:skills.git", secret: "pw12345", names: "IdentityFile"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := Check(tt.url)
			if tt.secret == "" {
				if err != nil {
					t.Fatalf("Check: %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrCredentialsInURL) {
				t.Fatalf("Check: %v, want ErrCredentialsInURL", err)
			}
			if strings.Contains(err.Error(), tt.secret) {
				t.Errorf("the refusal shows the secret: %v", err)
			}
			if !strings.Contains(err.Error(), tt.names) {
				t.Errorf("the refusal does not name %q: %v", tt.names, err)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://github.com/team/skills", "https://github.com/team/skills"},
		{"https://alice@dev.azure.com/org", "https://alice@dev.azure.com/org"},
		{"https://x-access-token:ghp_abc@github.com/t/s", "https://x-access-token:***@github.com/t/s"},
		{"https://glpat-abcdef@gitlab.com/t/s", "https://***@gitlab.com/t/s"},
		{"https://a:b@c@host/x", "https://a:***@host/x"},
		{"https://host/x?u=a:b@c", "https://host/x?u=a:b@c"},
		{"git@github.com:t/s.git", "git@github.com:t/s.git"},
		{"git:pw@host:t/s.git", "***@host:t/s.git"},
		{"../skills", "../skills"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
