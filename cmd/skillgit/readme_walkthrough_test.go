package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// walkthrough is one shell block of the README, run as a user would type it in an empty
// folder: the network addresses it names are the only words changed, each to a repository on
// this machine, and the commands the README says fail are expected to fail with that code.
type walkthrough struct {
	section string            // the heading whose first sh block is run
	replace map[string]string // README text -> what runs instead
	expect  map[string]int    // a command's start -> its documented exit code
}

// TestReadmeWalkthroughs runs the README's walkthroughs and checks what they leave.
func TestReadmeWalkthroughs(t *testing.T) {
	skillgit := skillgitCommand(t)
	readme := readRepoFile(t, "README.md")

	t.Run("lifecycle", func(t *testing.T) {
		home := testenv.Hermetic(t, nil)
		testenv.WriteFiles(t, filepath.Join(home, ".claude/skills/pdf-tools"), map[string]string{
			"SKILL.md": testenv.SkillMD("pdf-tools", "# PDF tools\n\nFill the form fields one by one, then flatten the file.\n"),
		})
		work := runWalkthrough(t, skillgit, readme, walkthrough{section: "### The lifecycle"})
		repo := filepath.Join(work, "skills-repo")
		log := testenv.GitText(t, repo, "log", "--first-parent", "--format=%s", "main")
		for _, want := range []string{"publish: pdf-tools", "rollback"} {
			if !strings.Contains(log, want) {
				t.Errorf("main's history has no %q:\n%s", want, log)
			}
		}
		if refs := testenv.GitText(t, repo, "for-each-ref", "--format=%(refname)", "refs/heads/candidate/"); !strings.Contains(refs, "candidate/pdf-tools-") {
			t.Errorf("the rolled-back version was not proposed again; candidate branches: %q", refs)
		}
	})

	t.Run("sync packs remotes", func(t *testing.T) {
		testenv.Hermetic(t, nil)
		packs := t.TempDir()
		anthropic, openai := vendorPack(t, packs, "anthropic", "skills"), vendorPack(t, packs, "openai", "skills/.system")
		server := filepath.Join(t.TempDir(), "skills.git")
		work := runWalkthrough(t, skillgit, readme, walkthrough{
			section: "### Sync, packs and remotes",
			replace: map[string]string{
				"ssh git@git.example.com skillgit init --bare team/skills.git": "skillgit init --bare " + server,
				"git@git.example.com:team/skills.git":                          server,
				"https://github.com/openai/skills/tree/main/skills/.system":    "file://" + openai + " --path skills/.system",
				"anthropics/skills": "file://" + anthropic,
			},
			expect: map[string]int{"skillgit pack update": 3},
		})
		app := filepath.Join(work, "app")
		for _, f := range []string{".claude/skills/pdf/SKILL.md", ".agents/skills/docx/SKILL.md", ".skillgit-sync.lock", "AGENTS.md"} {
			if _, err := os.Stat(filepath.Join(app, f)); err != nil {
				t.Errorf("the application project lacks %s: %v", f, err)
			}
		}
		if st := testenv.GitText(t, app, "status", "--porcelain"); st != "" {
			t.Errorf("the application project is not clean after the walkthrough's commit:\n%s", st)
		}
		local := testenv.GitText(t, filepath.Join(work, "skills"), "rev-parse", "main")
		if remote := testenv.GitText(t, server, "rev-parse", "main"); remote != local {
			t.Errorf("the server's main is %s, the skill repository's %s", remote, local)
		}
	})
}

// runWalkthrough writes the section's first sh block as a script, with the changes w names,
// runs it in a new empty folder and fails the test on every command that exits otherwise than
// the README says. It returns the folder.
func runWalkthrough(t *testing.T, skillgit, readme string, w walkthrough) string {
	t.Helper()
	block := shBlock(t, readme, w.section)
	for from, to := range w.replace {
		if !strings.Contains(block, from) {
			t.Fatalf("README %s: the walkthrough no longer names %q", w.section, from)
		}
		block = strings.ReplaceAll(block, from, to)
	}
	for start, code := range w.expect {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(start) + `\b`)
		if !re.MatchString(block) {
			t.Fatalf("README %s: no command starts with %q", w.section, start)
		}
		block = re.ReplaceAllString(block, fmt.Sprintf("expect %d %s", code, start))
	}
	work := t.TempDir()
	script := "trap 'echo \"walkthrough: exit $? at line $LINENO: $BASH_COMMAND\" >&2' ERR\n" +
		"expect() { want=$1; shift; \"$@\"; got=$?; [ \"$got\" = \"$want\" ] || { echo \"walkthrough: $* exited $got, not $want\" >&2; return 1; }; }\n" +
		block
	cmd := exec.Command("bash", "--noprofile", "--norc", "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(skillgit)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "walkthrough: ") {
		t.Errorf("README %s, run in an empty folder: %v\n%s", w.section, err, out)
	}
	return work
}

// shBlock returns the first ```sh block after the heading.
func shBlock(t *testing.T, readme, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README: no heading %q", heading)
	}
	_, rest, ok = strings.Cut(rest, "\n```sh\n")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatalf("README %s: no sh block", heading)
	}
	return block + "\n"
}

// vendorPack makes a git repository in dir/name shaped like a vendor's public skill pack, with
// the skills the README's walkthrough names under folder: pdf, docx, xlsx and a skill-creator,
// and, in the "anthropic" pack, claude-api with a description over the limit.
func vendorPack(t *testing.T, dir, name, folder string) string {
	t.Helper()
	repo := filepath.Join(dir, name)
	skills := map[string]string{
		"skill-creator": "Creates new skills and improves existing ones. Use when someone wants to write or change a skill.",
	}
	if name == "anthropic" {
		skills["pdf"] = "Reads, fills and merges PDF files. Use when a task involves PDF forms or documents."
		skills["docx"] = "Creates and edits Word documents. Use for .docx reports, letters and tracked changes."
		skills["xlsx"] = "Reads and writes spreadsheets. Use for .xlsx files, formulas and charts."
		skills["claude-api"] = strings.Repeat("Builds applications on the model API, with streaming, tools and batches. ", 15)[:1068]
	} else {
		skills["skill-installer"] = "Installs skills from a list or a repository into the agent's skills folder."
	}
	files := map[string]string{}
	for skill, desc := range skills {
		files[folder+"/"+skill+"/SKILL.md"] = fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n# %s\n\nFollow the steps in order and check each result.\n", skill, desc, skill)
	}
	testenv.WriteFiles(t, repo, files)
	testenv.Git(t, repo, "init", "-q", "-b", "main")
	testenv.CommitAll(t, repo, "Skills.")
	return repo
}
