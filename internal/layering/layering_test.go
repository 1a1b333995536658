package layering

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/skillgit/skillgit/"

// forbidden maps a package to the packages of this module it must not import, directly.
var forbidden = map[string][]string{
	"catalog": {"gitstore", "lifecycle", "doctor", "audit", "hooks", "mcpserver", "cmd", "targetdir"},
	// One agent folder is written from a catalog's skills over fs.FS: it knows no git and
	// nothing of the lifecycle that chooses what to install.
	"targetdir": {"gitstore", "lifecycle", "audit", "hooks", "mcpserver", "doctor", "cmd"},
	"audit":     {"gitstore", "lifecycle", "doctor", "catalog", "hooks", "mcpserver", "cmd"},
	// Reading code as a program knows nothing of skills, findings or rules: the audit judges.
	"audit/codeflow": {"=audit", "gitstore", "lifecycle", "doctor", "catalog", "hooks", "mcpserver", "cmd", "internal"},
	"gitstore":       {"lifecycle", "doctor", "catalog", "audit", "hooks", "mcpserver", "cmd"},
	"lifecycle":      {"lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/receive", "doctor", "hooks", "mcpserver", "cmd"},
	"doctor":         {"lifecycle", "hooks", "mcpserver", "cmd"},
	// The ledger reads git and nothing of the lifecycle it serves.
	"lifecycle/ledger":    {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/published", "lifecycle/auditrun", "lifecycle/receive", "hooks", "mcpserver", "cmd", "doctor", "audit"},
	"lifecycle/packs":     {"lifecycle/remotes", "lifecycle/agentsync", "lifecycle/receive", "hooks", "mcpserver", "cmd"},
	"lifecycle/remotes":   {"lifecycle/packs", "lifecycle/agentsync", "lifecycle/receive", "hooks", "mcpserver", "cmd"},
	"lifecycle/agentsync": {"lifecycle/packs", "lifecycle/remotes", "lifecycle/receive", "hooks", "mcpserver", "cmd"},
	"lifecycle/policy":    {"lifecycle", "gitstore", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "hooks", "mcpserver", "cmd"},
	// The audit runs for the lifecycle and knows nothing of it: policy and ledger it may use.
	"lifecycle/auditrun": {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/published", "lifecycle/receive", "hooks", "mcpserver", "cmd", "doctor"},
	// The read side serves the actions; it reads the ledger and the policy, nothing above.
	"lifecycle/published": {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/auditrun", "lifecycle/receive", "hooks", "mcpserver", "cmd", "doctor"},
	// The server's check stands on the lifecycle like packs, remotes and agentsync; only the
	// hooks (and cmd) run it.
	"lifecycle/receive": {"lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "hooks", "mcpserver", "cmd", "doctor"},
	// Creating a repository needs no skillgit repository to stand on: it writes the first
	// commits with the ledger's trailers, the policy's defaults and the audit's verdict.
	"lifecycle/initrepo": {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/published", "lifecycle/receive", "hooks", "mcpserver", "cmd", "doctor"},
	// The path policy's checks serve the actions and sync alike: they read git and the catalog.
	"lifecycle/pathcheck": {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/published", "lifecycle/auditrun", "lifecycle/receive", "lifecycle/initrepo", "hooks", "mcpserver", "cmd", "doctor"},
	// Comparing root trees under the skills folder reads git, the ledger's constants and the
	// read side's lookup of a skill's folder; the actions stand on it.
	"lifecycle/skilltree": {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/auditrun", "lifecycle/receive", "lifecycle/initrepo", "lifecycle/pathcheck", "hooks", "mcpserver", "cmd", "doctor"},
	// What a policy change changes reads the ledger's book and the compared trees, for the
	// actions, the review and the trail.
	"lifecycle/policydiff": {"=lifecycle", "lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/auditrun", "lifecycle/receive", "lifecycle/initrepo", "lifecycle/pathcheck", "hooks", "mcpserver", "cmd", "doctor"},
	"hooks":                {"mcpserver", "cmd"},
	"mcpserver":            {"lifecycle/receive", "cmd"},
	// The names skillgit writes are one list that every package may read: it reads nothing.
	"internal/filenames": {"gitstore", "lifecycle", "catalog", "targetdir", "audit", "doctor", "hooks", "mcpserver", "cmd", "internal"},
	// A progress line is text on a writer, for the hooks and cmd alike: it reads nothing.
	"internal/progress": {"gitstore", "lifecycle", "catalog", "targetdir", "audit", "doctor", "hooks", "mcpserver", "cmd", "internal"},
	// Patterns compiled on first use serve every package: it reads nothing.
	"internal/lazyregexp": {"gitstore", "lifecycle", "catalog", "targetdir", "audit", "doctor", "hooks", "mcpserver", "cmd", "internal"},
	// The heap's huge pages are asked for before the command's packages start: it reads nothing.
	"internal/hugeheap": {"gitstore", "lifecycle", "catalog", "targetdir", "audit", "doctor", "hooks", "mcpserver", "cmd", "internal"},
	// testenv serves every package's tests, lifecycle's own included: it needs only git.
	"internal/testenv": {"gitstore", "lifecycle", "catalog", "audit", "hooks", "mcpserver", "cmd"},
	// lifecycletest serves the packages built on lifecycle, so it stands below them.
	"internal/lifecycletest": {"lifecycle/packs", "lifecycle/remotes", "lifecycle/agentsync", "lifecycle/receive", "hooks", "mcpserver", "cmd"},
}

func TestPackagesPointOneWay(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for pkg, bans := range forbidden {
		p, err := build.Default.ImportDir(filepath.Join(root, filepath.FromSlash(pkg)), 0)
		if err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		for _, imp := range p.Imports {
			for _, ban := range bans {
				if banned(imp, ban) {
					t.Errorf("%s imports %s; the packages point the other way (README, Layout of the code)", pkg, imp)
				}
			}
		}
	}
}

// banned reports whether the import path imp is the package ban of this module or lies below
// it: a ban of "lifecycle" covers lifecycle/policy too, and a package is never its own ban,
// so that lifecycle may import lifecycle/policy while lifecycle/policy may import no part of
// lifecycle. A ban written "=lifecycle" is that package alone, not the packages below it.
func banned(imp, ban string) bool {
	rel, ok := strings.CutPrefix(imp, module)
	if only, exact := strings.CutPrefix(ban, "="); exact {
		return ok && rel == only
	}
	return ok && (rel == ban || strings.HasPrefix(rel, ban+"/"))
}

func TestBanned(t *testing.T) {
	tests := []struct {
		imp, ban string
		want     bool
	}{
		{module + "lifecycle", "lifecycle", true},
		{module + "lifecycle/policy", "lifecycle", true},
		{module + "lifecycle/policy", "lifecycle/packs", false},
		{module + "lifecyclex", "lifecycle", false},
		{"example.com/lifecycle", "lifecycle", false},
		{module + "lifecycle", "=lifecycle", true},
		{module + "lifecycle/policy", "=lifecycle", false},
		{module + "lifecyclex", "=lifecycle", false},
	}
	for _, tt := range tests {
		if got := banned(tt.imp, tt.ban); got != tt.want {
			t.Errorf("banned(%q, %q) = %v, want %v", tt.imp, tt.ban, got, tt.want)
		}
	}
}

// TestEveryPackageIsRuled fails when a package is added under lifecycle without a rule here.
func TestEveryPackageIsRuled(t *testing.T) {
	entries, err := os.ReadDir("../../lifecycle")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			if _, ok := forbidden["lifecycle/"+e.Name()]; !ok {
				t.Errorf("lifecycle/%s has no rule in forbidden", e.Name())
			}
		}
	}
}
