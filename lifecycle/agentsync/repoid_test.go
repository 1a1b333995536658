package agentsync

import "testing"

// TestRepositoryIdentity checks that the URLs that reach one repository have one identity,
// and that other repositories keep theirs.
func TestRepositoryIdentity(t *testing.T) {
	tests := []struct{ name, want string }{
		{"https://git.example.com/team/skills", "git.example.com/team/skills"},
		{"https://git.example.com/team/skills.git", "git.example.com/team/skills"},
		{"https://git.example.com/team/skills/", "git.example.com/team/skills"},
		{"https://git.example.com/team/skills.git/", "git.example.com/team/skills"},
		{"HTTPS://Git.Example.COM/team/skills", "git.example.com/team/skills"},
		{"http://git.example.com//team//skills", "git.example.com/team/skills"},
		{"https://rita:secret@git.example.com/team/skills", "git.example.com/team/skills"},
		{"https://git.example.com:8443/team/skills?ref=main#top", "git.example.com/team/skills"},
		{"https://git.example.com/team/my%20skills", "git.example.com/team/my skills"},
		{"git@git.example.com:team/skills.git", "git.example.com/team/skills"},
		{"git@Git.Example.com:team/skills", "git.example.com/team/skills"},
		{"ssh://git@git.example.com/team/skills.git", "git.example.com/team/skills"},
		{"ssh://git@git.example.com:2222/team/skills", "git.example.com/team/skills"},
		{"git://git.example.com/team/skills", "git.example.com/team/skills"},
		{"ssh://git@[::1]:22/team/skills", "[::1]/team/skills"},
		{"https://git.example.com/team/Skills", "git.example.com/team/Skills"},
		{"https://git.example.com/other/skills", "git.example.com/other/skills"},
		{"https://example.com/team/skills", "example.com/team/skills"},
		{"file:///srv/git/skills.git", "file:///srv/git/skills"},
		{"file:///srv/git/skills/", "file:///srv/git/skills"},
		{"../skills/", "../skills"},
		{"./skills", "skills"},
	}
	for _, tc := range tests {
		if got := RepositoryIdentity(tc.name); got != tc.want {
			t.Errorf("RepositoryIdentity(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSameRepository checks which names of a skill repository are one repository.
func TestSameRepository(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"https://git.example.com/team/skills", "git@git.example.com:team/skills.git", true},
		{"https://git.example.com/team/skills.git", "ssh://git@git.example.com/team/skills", true},
		{"git@git.example.com:team/skills.git", "git@GIT.example.com:team/skills", true},
		{"https://git.example.com/team/skills", "https://git.example.com/team/skills2", false},
		{"https://git.example.com/team/skills", "https://git.example.org/team/skills", false},
		{"https://git.example.com/team/skills", "https://git.example.com/Team/skills", false},
		{"file:///srv/skills", "/srv/skills", false},
		{"../skills", "../skills/", true},
		{"../skills", "../other", false},
	}
	for _, tc := range tests {
		if got := SameRepository(tc.a, tc.b); got != tc.same {
			t.Errorf("SameRepository(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
