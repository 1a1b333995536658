package agentsync

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// RepositoryIdentity is what names one repository among the URLs that reach it: the host,
// lower-cased, and the path, without the scheme, the user, the port, a query, a trailing
// slash or a trailing .git. So https://host/team/skills, ssh://git@host/team/skills.git and
// git@host:team/skills.git have one identity, host/team/skills. A file:// URL keeps its
// scheme and its cleaned path; a name that is no URL (IsGitURL) is a path, returned cleaned.
func RepositoryIdentity(name string) string {
	name = strings.TrimSpace(name)
	if !IsGitURL(name) {
		return filepath.Clean(name)
	}
	scheme, rest, ok := strings.Cut(name, "://")
	if !ok {
		// user@host:path, the scp-like form of an ssh address.
		_, hostPath, _ := strings.Cut(name, "@")
		host, p, _ := strings.Cut(hostPath, ":")
		return identity(host, p)
	}
	if strings.EqualFold(scheme, "file") {
		return "file://" + repoPath(rest)
	}
	authority, p, _ := strings.Cut(rest, "/")
	return identity(hostOf(authority), p)
}

// SameRepository reports whether a and b, two names of a skill repository as a sync file or
// a lock gives them, are one repository: URLs of one RepositoryIdentity, or the same path.
func SameRepository(a, b string) bool {
	return IsGitURL(a) == IsGitURL(b) && RepositoryIdentity(a) == RepositoryIdentity(b)
}

// identity joins a host and a repository path into an identity.
func identity(host, p string) string {
	return strings.ToLower(host) + "/" + strings.TrimPrefix(repoPath(p), "/")
}

// hostOf is the host of a URL's authority, without the user and the port.
func hostOf(authority string) string {
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		authority = authority[i+1:]
	}
	if strings.HasPrefix(authority, "[") {
		if end := strings.Index(authority, "]"); end > 0 {
			return authority[:end+1]
		}
	}
	host, _, _ := strings.Cut(authority, ":")
	return host
}

// repoPath is a repository's path without a query, a fragment, escapes, repeated or
// trailing slashes and a trailing .git.
func repoPath(p string) string {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	p = path.Clean("/" + p)
	p = strings.TrimSuffix(p, ".git")
	return strings.TrimSuffix(p, "/")
}
