package codeflow

import (
	"regexp"
	"strings"
	"sync"
)

// secretNameRe matches the names of environment variables that hold
// secrets: API_KEY, GITHUB_TOKEN, DB_PASSWORD, AWS_SECRET_ACCESS_KEY.
var secretNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|_)(?:api_?key|apikey|key|secret|token|pat|passw(?:or)?d|pass|pwd|credentials?|creds?|auth|private_?key|access_?key|session|cookie|bearer)(?:$|_)|(?i)(?:secret|password|apikey)`)
})

// secretName reports whether an environment variable's name says it holds a secret.
func secretName(name string) bool {
	return name != "" && len(name) <= 128 && secretNameRe().MatchString(name)
}

// credPaths are parts of paths to files that hold credentials, or the
// agent's conversation, in a user's home or a project.
var credPaths = []string{
	".ssh/id_", ".ssh/", "/id_rsa", "/id_ed25519", "/id_ecdsa", ".aws/credentials", ".aws/config",
	".netrc", ".git-credentials", ".npmrc", ".pypirc", ".docker/config.json", ".kube/config",
	".config/gh/hosts.yml", ".gnupg/", "keychains/", "login.keychain", ".bash_history", ".zsh_history",
	"/etc/shadow", ".config/gcloud/", ".azure/", "credentials.json", ".claude/projects", ".claude.json",
	".codex/", ".cursor/", "cookies.sqlite", "/cookies", "login data", ".vault-token", ".terraform.d/credentials",
	".kaggle/kaggle.json", ".pgpass", ".my.cnf", ".s3cfg", ".boto", ".config/rclone/", ".config/hub", ".gem/credentials",
	".cargo/credentials", ".composer/auth.json", ".m2/settings.xml", ".gradle/gradle.properties", ".config/op/",
	".password-store/", "wallet.dat", ".electrum/", ".bitcoin/", ".ethereum/keystore", ".config/solana/id.json",
}

// dotenvFile reports whether a path names a dotenv file: it holds secrets, but
// code reads one to find its own key, so only its data counts, as a secret
// without a service's name.
func dotenvFile(p string) bool {
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	base := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasSuffix(base, ".example") || strings.HasSuffix(base, ".sample") || strings.HasSuffix(base, ".template") {
		return false
	}
	return base == ".env" || strings.HasSuffix(base, ".env") || strings.HasPrefix(base, ".env.")
}

// CredentialFile reports whether a path names a credential file: an SSH key, a cloud
// provider's or a package registry's credentials, a keychain, the agent's conversation.
func CredentialFile(p string) bool { return credFile(p) }

// DotenvFile reports whether a path names a dotenv file (.env, prod.env, .env.local), which
// holds secrets; templates such as .env.example are not.
func DotenvFile(p string) bool { return dotenvFile(p) }

// credFile reports whether a path names a credential file.
func credFile(p string) bool {
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	if p == "" || p == unknown {
		return false
	}
	for _, c := range credPaths {
		if strings.Contains(p, c) {
			return true
		}
	}
	return false
}

// envValue is the value of one environment variable by name: a secret
// when the name says so, plain unknown text otherwise.
func envValue(name, from string) value {
	if !secretName(name) {
		return unknownValue()
	}
	return value{t: tSecret, s: unknown, from: from, secret: name, secrets: []string{name}}
}

// wholeEnv is the whole environment.
func wholeEnv(from string) value { return value{t: tEnv, s: unknown, from: from} }

// fetched is content fetched from url.
func fetched(url value) value {
	from := "content fetched from the network"
	if url.s != "" && url.s != unknown {
		from = "content fetched from " + url.shown()
	}
	return value{t: tFetched | url.t&sensitive, s: unknown, from: from}
}

// fileValue is an open file: its content is a credential when its path is one.
func (in *interp) fileValue(p value, write bool) value {
	v := value{kind: vFile, s: unknown, path: p.s, write: write, t: p.t & sensitive}
	switch {
	case in.secretFile(p.s):
		v.t |= tEnv
		v.from = p.shown() + ", which the skill's shell code fills with the environment"
	case credFile(p.s):
		v.t |= tCred
		v.from = p.shown()
	case dotenvFile(p.s):
		v.t |= tSecret
		v.from = p.shown()
	}
	return v
}

// secretFile reports a path whose file name is one the skill's other code writes secrets into.
func (in *interp) secretFile(p string) bool {
	if p == "" || p == unknown {
		return false
	}
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	for _, f := range in.secretFiles {
		if base == f {
			return true
		}
	}
	return false
}

// contentOf is what reading an open file gives.
func contentOf(f value) value {
	return value{t: f.t, s: unknown, from: f.from, secret: f.secret, secrets: f.secrets}
}
