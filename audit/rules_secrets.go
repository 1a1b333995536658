package audit

import (
	"bytes"
	"strings"
)

func init() { register(secretRules...) }

const secretHelp = " Secrets in a skill are readable by everyone who can read the repository and by every agent that loads it. Revoke it and load it from the environment or a secret store; the audit never shows it in full."

var secretRules = []*Rule{{
	ID: "SG-SEC-001", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "AWS access key",
	Help:     "An AWS access key id or secret access key is written into the skill." + secretHelp,
	Keywords: []string{"akia", "asia", "abia", "acca", "a3t", "secret_access_key", "secretaccesskey"},
	pattern:  `\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b|(?i:aws_?secret_?access_?key)["']?\s*[=:]\s*["']?[A-Za-z0-9/+=]{40}\b`,
	validate: notExampleKey,
	fire:     []string{"aws_access_key_id = AKIA2QX7MZK4TRP5LWJN", "export AWS_SECRET_ACCESS_KEY=q3Rz8Kx1VbN7mP2sT9wL4yH6jD0fG5cA8eU1iO3n"},
	pass:     []string{"aws_access_key_id = <your access key id>", "Access key ids start with AKIA followed by 16 characters.", "aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE"},
}, {
	ID: "SG-SEC-002", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "GitHub token",
	Help:     "A GitHub token is written into the skill." + secretHelp,
	Keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
	pattern:  `\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b`,
	fire:     []string{"GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345", "token: gho_ZYXWVUTSRQponmlkjihg0123456789abcdef"},
	pass:     []string{"Tokens look like ghp_ followed by 36 characters.", "export GITHUB_TOKEN=$(gh auth token)"},
}, {
	ID: "SG-SEC-003", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "Slack token",
	Help:     "A Slack token is written into the skill." + secretHelp,
	Keywords: []string{"xoxb-", "xoxa-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xapp-"},
	pattern:  `\bxox[abposr]-(?:\d+-)+[A-Za-z0-9-]{10,}\b|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+\b`,
	fire:     []string{"SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxp-1111111111-2222222222-3333333333-abcdefabcdefabcdef"},
	pass:     []string{"Bot tokens begin with xoxb-.", "SLACK_BOT_TOKEN=xoxb-your-token-here"},
}, {
	ID: "SG-SEC-004", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "private key",
	Help:     "A private key is written into the skill." + secretHelp,
	Keywords: []string{"private key"},
	pattern:  `-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----(?:[\sA-Za-z0-9+/=:,.-]*?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?`,
	span:     120, validate: func(data []byte, loc []int) bool { return keyBody(data, loc) && !elidedKey(data, loc) },
	fire: []string{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----"},
	pass: []string{"Never commit a private key; use the CI secret store.", "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----", "```\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\n-----END PRIVATE KEY-----\n```", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ…\n-----END OPENSSH PRIVATE KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----", "A PEM key starts with -----BEGIN RSA PRIVATE KEY----- and ends with an END line."},
}, {
	ID: "SG-SEC-005", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "Google API key",
	Help:     "A Google API key is written into the skill." + secretHelp,
	Keywords: []string{"aiza"},
	pattern:  `\bAIza[0-9A-Za-z_-]{35}\b`,
	validate: func(data []byte, loc []int) bool { return !filledKey(data[loc[0]:loc[1]]) },
	fire:     []string{"GOOGLE_API_KEY=AIzaSyA1234567890abcdefghijklmnopqrstuv", "key: \"AIzaSyD-abcdefghijklmnopqrstuvwxyz01234\""},
	pass:     []string{"Google API keys begin with AIza.", "GOOGLE_API_KEY=AIza...", "?key=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "GOOGLE_API_KEY=AIzaSy00000000000000000000000000000000"},
}, {
	ID: "SG-SEC-006", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "AI provider API key",
	Help:     "An API key of a model provider is written into the skill." + secretHelp,
	Keywords: []string{"sk-ant-", "t3blbkfj", "sk-proj-"},
	pattern:  `\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}|\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-proj-[A-Za-z0-9_-]{40,}`,
	fire:     []string{"ANTHROPIC_API_KEY=sk-ant-api03-" + fakeKey80, "OPENAI_API_KEY=sk-proj-0123456789abcdefghijABCDEFGHIJ0123456789abcdefghij"},
	pass:     []string{"export ANTHROPIC_API_KEY=sk-ant-...", "Keys start with sk-ant-api03- followed by a long random part."},
}, {
	ID: "SG-SEC-007", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "payment or mail service key",
	Help:     "A live key of a payment or mail service is written into the skill." + secretHelp,
	Keywords: []string{"sk_live_", "rk_live_", `\bsg.`, `\bkey-`},
	pattern:  `\b(?:sk|rk)_live_[0-9a-zA-Z]{24,}\b|\bSG\.[\w-]{22}\.[\w-]{43}\b|\bkey-[0-9a-f]{32}\b`,
	fire:     []string{"STRIPE_KEY=sk_live_0123456789abcdefghijABCD", "SENDGRID_API_KEY=SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"},
	pass:     []string{"Use test keys (sk_test_...) in development.", "STRIPE_KEY=sk_live_xxx"},
}, {
	ID: "SG-SEC-008", Severity: High, Category: "secrets", tags: tagSecret, exact: true,
	Title:    "package registry or developer platform token",
	Help:     "A token of a package registry or developer platform is written into the skill." + secretHelp,
	Keywords: []string{"npm_", "pypi-age", "glpat-", "hf_", "dop_v1_", "shpat_"},
	pattern:  `\bnpm_[A-Za-z0-9]{36}\b|\bpypi-AgE[A-Za-z0-9_-]{50,}|\bglpat-[A-Za-z0-9_-]{20,}\b|\bhf_[A-Za-z0-9]{34,}\b|\bdop_v1_[a-f0-9]{64}\b|\bshpat_[a-fA-F0-9]{32}\b`,
	fire:     []string{"NPM_TOKEN=npm_0123456789abcdefghijABCDEFGHIJ012345", "GITLAB_TOKEN=glpat-AbCdEfGhIjKlMnOpQrSt"},
	pass:     []string{"Create an npm token in the registry settings and store it as NPM_TOKEN.", "GITLAB_TOKEN=glpat-xxxx"},
}, {
	ID: "SG-SEC-009", Severity: High, Category: "secrets", tags: tagSecret,
	Title:    "hard-coded password or secret",
	Help:     "A value that looks random enough to be real is assigned to a password, token or secret." + secretHelp,
	Keywords: []string{`\bapikey`, `\bapi_key`, `\bapi-key`, `\bsecret`, `\bclientsecret`, `\bclient_secret`, `\bclient-secret`, `\baccesstoken`, `\baccess_token`, `\baccess-token`, `\bauthtoken`, `\bauth_token`, `\bauth-token`, `\bpassword`, `\bpasswd`, `\bpwd`},
	anchored: true,
	pattern:  `(?i)\b(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|password|passwd|pwd|secret)\b["']?\s*[:=]\s*["']([^\s"'$<>{}]{12,})["']`,
	validate: func(data []byte, loc []int) bool {
		return realSecret(data, loc) && !countingValue(string(data[loc[2]:loc[3]]))
	},
	fire: []string{"api_key = \"q8Vt3Lz0Rx7Kp2Wm9Nc4\"", "password: \"T7#kq9!Lm2@xZ4pv\"", "\"apiKey\": \"sk-q8Vt3Lz0Rx7Kp2Wm9Nc4\""},
	pass: []string{"api_key = \"your-api-key-here\"", "api_key = \"sk-abc123xyz789\"", "\"apiKey\": \"sk-xyz789abc123def456\"", "password = os.environ[\"DB_PASSWORD\"]", "token: \"${{ secrets.NPM_TOKEN }}\"", "password: \"NewSecurePass456!\",", "api_key: \"sk-1234567890abcdef\"  # never do this", "password = \"super_secret_password_123\"", "const API_KEY = 'sk_live_abc123xyz';"},
}}

const fakeKey80 = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMn-AAAA"

// elidedKey reports a private key block that shows only the start of a key and
// elides the rest ("MIIEvQ...", "…"): an example of the format, not a key. A
// block with more key material than a line or two counts whatever it elides.
func elidedKey(data []byte, loc []int) bool {
	body := data[loc[0]:min(len(data), max(loc[1], loc[0]+400))]
	if i := bytes.Index(body, []byte("KEY")); i >= 0 {
		body = body[i+3:]
	}
	if i := bytes.Index(body, []byte("-----END")); i >= 0 {
		body = body[:i]
	}
	if !bytes.Contains(body, []byte("...")) && !bytes.Contains(body, []byte("…")) {
		return false
	}
	material := 0
	for _, b := range body {
		if 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '+' || b == '/' {
			material++
		}
	}
	return material < 160
}

// countingValue reports a value made mostly of runs such as abc, 123 or xyz:
// the "sk-abc123xyz789" that documentation writes where a key goes. A random
// key has almost no such runs.
func countingValue(v string) bool {
	v = withoutKeyPrefix(v)
	alnum, inRun := 0, 0
	run := 1
	for i := 0; i < len(v); i++ {
		c := lowerASCII(v[i])
		if !isAlnum(c) {
			run = 1
			continue
		}
		alnum++
		if i > 0 && isAlnum(lowerASCII(v[i-1])) && c == lowerASCII(v[i-1])+1 && isDigit(c) == isDigit(v[i-1]) {
			run++
			switch {
			case run == 3:
				inRun += 3
			case run > 3:
				inRun++
			}
			continue
		}
		run = 1
	}
	return alnum > 0 && inRun*3 >= alnum*2
}

// withoutKeyPrefix returns v without the vendor prefix keys start with (sk_live_, sk-,
// pk_test_): letters that name the kind of key, which are no part of its random body.
func withoutKeyPrefix(v string) string {
	for range 3 {
		i := strings.IndexAny(v, "_-")
		if i <= 0 || i > 6 || i == len(v)-1 || strings.Trim(strings.ToLower(v[:i]), "abcdefghijklmnopqrstuvwxyz") != "" {
			break
		}
		v = v[i+1:]
	}
	return v
}

// filledKey reports a key whose body is filler, such as AIzaXXXXXXXX…: eight
// characters alike in a row, which a random key has about never.
func filledKey(key []byte) bool {
	run := 1
	for i := 1; i < len(key); i++ {
		if lowerASCII(key[i]) != lowerASCII(key[i-1]) {
			run = 1
			continue
		}
		if run++; run >= 8 {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'z' }
