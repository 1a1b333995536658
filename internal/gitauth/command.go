package gitauth

import (
	"os"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport/http"
)

// Variables through which CommandEnv hands the credentials to the git command's helper.
const (
	userVar     = "SKILLGIT_GIT_USERNAME"
	passwordVar = "SKILLGIT_GIT_PASSWORD"
)

// envHelper is a credential helper, run by git's shell, that answers a get with the
// credentials the environment of the git command holds, and ignores store and erase: the
// secret stays in the environment of the command and its children, never in a file.
const envHelper = `!f() { cat >/dev/null; test "$1" = get || exit 0; printf 'username=%s\npassword=%s\n' "$` + userVar + `" "$` + passwordVar + `"; }; f`

// CommandEnv returns what to add to the environment of a git command that reaches the URL of
// a, so that the command sends what a's own calls send: the token of the host's variable, or
// what git's credential helpers gave an earlier call of a, through a helper that reads them
// from the environment (the helpers configured are not asked, so none stores them); a bearer
// token as an Authorization header. With no credentials found yet, the command asks git's
// credential helpers itself. It never prompts on the terminal.
func (a *Access) CommandEnv() []string {
	env := []string{"GIT_TERMINAL_PROMPT=0"}
	switch m := a.method.(type) {
	case *http.BasicAuth:
		env = append(env, configEnv("credential.helper", "", "credential.helper", envHelper)...)
		env = append(env, userVar+"="+m.Username, passwordVar+"="+m.Password)
	case *http.TokenAuth:
		env = append(env, configEnv("http.extraHeader", "Authorization: Bearer "+m.Token)...)
	}
	return env
}

// configEnv sets git configuration, key and value in turn, through GIT_CONFIG_COUNT and its
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, after the entries the environment sets already.
func configEnv(kv ...string) []string {
	n, err := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT"))
	if err != nil || n < 0 {
		n = 0
	}
	var env []string
	for i := 0; i+1 < len(kv); i += 2 {
		env = append(env, "GIT_CONFIG_KEY_"+strconv.Itoa(n)+"="+kv[i], "GIT_CONFIG_VALUE_"+strconv.Itoa(n)+"="+kv[i+1])
		n++
	}
	return append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(n))
}

// Conceal returns text with every secret a knows replaced by ***, for the messages of a git
// command that ran with CommandEnv.
func (a *Access) Conceal(text string) string {
	for _, s := range a.secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, "***")
		}
	}
	return text
}
