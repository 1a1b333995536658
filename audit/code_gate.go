package audit

import "sync"

// Parsing is the costly part of reading code as a program (tree-sitter reads Python at
// about 5 MB/s), so a skill's code is parsed only when its words show that a flow the
// analysis reports is possible at all: something that reads secrets and something that
// sends, something that fetches and something that runs or saves, or something that
// runs and a way of building its command from pieces; and always when it imports a module by
// a name built at run time, which hides every other word the gate looks for. One pass of a keyword automaton over the code
// decides.

// gate words, by what they show the code may do.
const (
	gateSource = 1 << iota // reads the environment, credentials or a keychain
	gateNet                // sends or fetches over the network
	gateRun                // runs a command or code
	gateBuild              // builds text from pieces: decoding, joining, character codes
	gateSave               // writes a file, which another file may run
	gateImport             // imports a module by a name built at run time, hiding which
)

var gateWords = map[int][]string{
	gateSource: {"environ", "getenv", "process.env", ".ssh", ".aws", ".netrc", "credential", "keyring", "keychain",
		"-password", "id_rsa", "id_ed25519", ".npmrc", ".pypirc", ".kube", ".docker", "printenv", ".env", "cookies",
		".claude", "secret-tool", "vault-token", "shadow", "gh auth", "op read", "history"},
	gateNet: {"requests", "urllib", "http", "socket", "fetch", "axios", "dns", "smtp", "xmlhttprequest", "websocket",
		"net.", "sendbeacon", "webbrowser", "ftplib", "paramiko", "curl", "wget", "undici", "aiohttp", "urlopen",
		"got(", "got.", "superagent", "needle", "'net'", "\"net\"", ":net"},
	gateRun: {"exec", "eval", "system", "subprocess", "popen", "function(", "child_process", "vm.", "runpy", "pickle",
		"marshal", "spawn", "settimeout", "pty", "execa", "shelljs", "import("},
	gateBuild: {"b64decode", "fromhex", "unhexlify", "chr(", "::-1", ".join(", "format(", "%", "atob(", "fromcharcode",
		"buffer.from", "reverse", "codecs", "getattr", "__import__", "replace(", "concat(", "rot13", "decode(", "`",
		"f\"", "f'", "\" +", "' +", "+ \"", "+ '", "\"+", "'+", "+\"", "+'"},
	gateSave:   {"write", "urlretrieve", "copyfileobj", "pipe("},
	gateImport: {"__import__", "importlib", "sys.modules", "require(`", "import(`"},
}

var gate = sync.OnceValues(func() (*matcher, []int) {
	var words []string
	var class []int
	for c, ws := range gateWords {
		for _, w := range ws {
			words = append(words, w)
			class = append(class, c)
		}
	}
	return newMatcher(words), class
})

// codeWorthReading reports whether the skill's code can hold a flow the analysis reports.
func codeWorthReading(units []codeUnit) bool {
	m, class := gate()
	seen := 0
	for _, u := range units {
		m.scanPlain(u.code, func(kw, _ int) { seen |= class[kw] })
	}
	return seen&gateImport != 0 ||
		seen&(gateSource|gateNet) == gateSource|gateNet ||
		seen&(gateNet|gateRun) == gateNet|gateRun ||
		seen&(gateRun|gateBuild) == gateRun|gateBuild ||
		seen&(gateNet|gateSave) == gateNet|gateSave
}
