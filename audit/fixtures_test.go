package audit

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// benignMedium lists the benign fixtures that are expected to be medium
// risk, each with the reason; every other benign fixture must be low.
var benignMedium = map[string]string{
	"chart-maker":                "ships scripts/chart.py: any script needs a human look",
	"install-cli-from-release":   "links a .deb package to download: executable download links need a human look",
	"pdf-form-filler":            "ships scripts/fill_form.py: any script needs a human look",
	"prompt-injection-explainer": "quotes injection phrases as examples: high rules demoted one level",
}

// maliciousMinimum gives the least risk each malicious fixture must reach.
var maliciousMinimum = map[string]Risk{
	"agent-settings-write": RiskHigh, "base64-reverse-shell": RiskHigh, "bidi-override": RiskHigh,
	"certutil-dropper": RiskHigh, "cloud-metadata": RiskHigh, "conceal-and-install": RiskHigh,
	"cron-persistence": RiskHigh, "css-hidden-instructions": RiskHigh, "curl-pipe-installer": RiskHigh,
	"destructive-cleanup": RiskHigh, "disable-defender": RiskHigh, "dns-exfil": RiskHigh,
	"download-chmod-run": RiskHigh, "elf-binary": RiskHigh, "env-dump-ip": RiskHigh,
	"env-to-chat-webhook": RiskHigh, "fake-authority": RiskMedium, "hardcoded-aws-key": RiskHigh,
	"hex-wrapped-installer": RiskHigh, "hidden-dotfile": RiskHigh, "hidden-html-text": RiskMedium,
	"homoglyph-injection": RiskHigh, "hooks-path": RiskHigh, "html-comment-instructions": RiskHigh,
	"jailbreak-persona": RiskHigh, "javascript-link": RiskHigh, "link-escape": RiskHigh,
	"lying-extension": RiskHigh, "markdown-comment-idiom": RiskMedium, "markdown-image-exfil": RiskHigh,
	"no-verify": RiskHigh, "password-archive": RiskHigh, "powershell-encoded": RiskHigh,
	"private-key-reference": RiskHigh, "prompt-extraction": RiskMedium, "put-secrets-in-link": RiskHigh,
	"quarantine-dmg": RiskHigh, "rc-and-claude-md": RiskMedium, "references-injection": RiskHigh,
	"remote-instructions": RiskHigh, "reverse-shell-script": RiskHigh, "secret-in-url": RiskMedium,
	"skip-audit": RiskHigh, "skip-permissions": RiskHigh, "special-tokens": RiskHigh,
	"split-exfil-files": RiskHigh, "split-lines-evasion": RiskHigh, "ssh-key-upload": RiskHigh,
	"sudoers-escalation": RiskHigh, "svg-script": RiskHigh, "tag-smuggling": RiskHigh,
	"unrestricted-tools": RiskMedium, "untrusted-index": RiskMedium, "variation-selector-smuggling": RiskHigh,
	"vendor-endorsement": RiskMedium, "zero-width-split": RiskHigh, "lookalike-filename": RiskMedium,
	"invisible-format-chars": RiskMedium, "fullwidth-obfuscation": RiskHigh, "escaped-hex-payload": RiskHigh,
}

func fixtureDirs(t *testing.T, set string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", set))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

func scanFixture(t *testing.T, set, name string) *Report {
	t.Helper()
	rep, err := Scan(os.DirFS(filepath.Join("testdata", set, name)), Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rep
}

func TestBenignFixtures(t *testing.T) {
	names := fixtureDirs(t, "benign")
	if len(names) < 30 {
		t.Fatalf("%d benign fixtures; want at least 30", len(names))
	}
	var medium []string
	for _, name := range names {
		rep := scanFixture(t, "benign", name)
		switch rep.Risk {
		case RiskHigh:
			t.Errorf("%s: risk high; a benign skill must never be high:\n%s", name, dump(rep))
		case RiskMedium:
			medium = append(medium, name)
			if benignMedium[name] == "" {
				t.Errorf("%s: risk medium without a listed reason:\n%s", name, dump(rep))
			}
		}
	}
	var want []string
	for name := range benignMedium {
		want = append(want, name)
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, medium); diff != "" {
		t.Errorf("medium benign fixtures (-listed +got):\n%s", diff)
	}
	t.Logf("benign: %d fixtures, %d medium (false positives at medium), 0 high", len(names), len(medium))
}

func TestMaliciousFixtures(t *testing.T) {
	names := fixtureDirs(t, "malicious")
	if len(names) < 40 {
		t.Fatalf("%d malicious fixtures; want at least 40", len(names))
	}
	detected := 0
	for _, name := range names {
		want, ok := maliciousMinimum[name]
		if !ok {
			t.Errorf("%s: no expected risk listed", name)
			continue
		}
		rep := scanFixture(t, "malicious", name)
		if rep.Risk < want {
			t.Errorf("%s: risk %s, want at least %s:\n%s", name, rep.Risk, want, dump(rep))
			continue
		}
		detected++
	}
	if len(maliciousMinimum) != len(names) {
		t.Errorf("%d expectations for %d fixtures", len(maliciousMinimum), len(names))
	}
	t.Logf("malicious: %d of %d detected at or above their expected risk", detected, len(names))
}
