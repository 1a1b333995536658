package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// examples holds the Examples block of each command, keyed by its command path. Every line
// that starts with "skillgit" is a command a test parses against the real flags; lines that
// start with "#" say what the next one does.
var examples = map[string]string{
	"skillgit": `
skillgit init --builtin
skillgit new pdf-tools --description "Fill and merge PDF forms. Use for any PDF task."
skillgit propose pdf-tools -m "Add pdf-tools"
skillgit review pdf-tools-7f3a
skillgit sync --target claude-code`,

	"skillgit init": `
# Make the current folder a skill repository, or adopt the git repository there
skillgit init
# A new repository in skills-repo, with the built-in skills published
skillgit init skills-repo --builtin
# An empty bare repository for a server, publish branch trunk: the first push fills it
skillgit init --bare --branch trunk /srv/git/skills.git`,

	"skillgit version": `
skillgit version`,

	"skillgit list": `
skillgit list
skillgit -C ~/skills list --json`,

	"skillgit read": `
skillgit read pdf-tools
skillgit read pdf-tools commit-messages --json`,

	"skillgit show": `
skillgit show pdf-tools
skillgit show pdf-tools --json`,

	"skillgit match": `
skillgit match merge two pdf files
skillgit match "write a release note" --limit 3
skillgit match fix the build --hint ci-debugging --json`,

	"skillgit prompt": `
# Every published skill, for a system prompt
skillgit prompt
# The skills of the profile "backend", with their SKILL.md after the block
skillgit prompt --profile backend --with-bodies --max-chars 4000
# The three skills that fit a task best, with progress events on stderr
skillgit prompt --match "review a pull request" --limit 3 --events`,

	"skillgit new": `
skillgit new pdf-tools --description "Fill and merge PDF forms. Use for any PDF task."
skillgit new release-notes --dir ~/drafts`,

	"skillgit validate": `
skillgit validate
skillgit validate skills/pdf-tools --lenient
skillgit validate ~/.claude/skills --json`,

	"skillgit propose": `
# Propose the skill pdf-tools of the working tree's skills folder
skillgit propose pdf-tools -m "Add form filling"
# Take the folder from an agent's skills folder and push the candidate branch
skillgit propose pdf-tools --from ~/.claude/skills/pdf-tools --push
# Propose again the version a rollback removed, as the publish 9e1f2d3 holds it
skillgit propose pdf-tools --from-rev 9e1f2d3 -m "Bring back merging"
# Propose removing a published skill
skillgit propose --delete pdf-tools -m "Superseded by documents"
# Propose the edited .skillgit.yaml as a policy change
skillgit propose --config -m "Require two approvals"`,

	"skillgit revise": `
skillgit revise pdf-tools-7f3a -m "Quote the file names in the script"
skillgit revise pdf-tools-7f3a --from ~/.claude/skills/pdf-tools -m "Answer the review"`,

	"skillgit review": `
skillgit review pdf-tools-7f3a
# A pull-request comment, verdict first
skillgit review pdf-tools-7f3a --format markdown
skillgit review pdf-tools-7f3a --json`,

	"skillgit approve": `
skillgit approve pdf-tools-7f3a
skillgit approve pdf-tools-7f3a -m "Checked the script by hand"
# Accept one audit finding for this version, saying why
skillgit approve pdf-tools-7f3a --accept 3f9c2a1b -m "The URL is our own mirror"`,

	"skillgit reject": `
skillgit reject pdf-tools-7f3a -m "Duplicates documents; extend that skill instead"`,

	"skillgit merge-candidate": `
# Fold a duplicate into the older candidate, then review that one
skillgit merge-candidate csv-cleaner-7f5b clean-csv-2a9e -m "Keep the clearer wording"`,

	"skillgit publish": `
skillgit publish pdf-tools-7f3a
skillgit publish pdf-tools-7f3a --channel canary`,

	"skillgit rollback": `
# Undo the latest publish of pdf-tools; run again to go back one more
skillgit rollback pdf-tools
skillgit rollback --commit 9e1f2d3`,

	"skillgit rebase": `
skillgit rebase pdf-tools-7f3a`,

	"skillgit candidates": `
skillgit candidates
skillgit candidates --state all --json`,

	"skillgit log": `
skillgit log
skillgit log pdf-tools --json`,

	"skillgit mode": `
skillgit mode
skillgit mode assisted
skillgit mode manual --author "Ada Lovelace <ada@example.com>"`,

	"skillgit audit": `
# Audit the repository's skills; exit 3 at or above the policy's fail_on
skillgit audit
skillgit audit ~/.claude/skills --fail-on medium
# The skills a branch changes, as SARIF for code scanning
skillgit audit --rev main..feature --format sarif
# Accept every current non-critical finding in the allow list
skillgit audit --write-allow -m "Reviewed by the security team"`,

	"skillgit sync": `
# In an application project: install what its .skillgit-sync.yaml asks for
skillgit sync
skillgit sync --target claude-code --target codex --dry-run
skillgit sync --offline
# ... and ignore its agents' skills folders in .gitignore (a fresh clone installs them)
skillgit sync --gitignore
# In the skill repository: into the project at ../app, the global folders, or a folder
skillgit sync --project ../app --target claude-code
skillgit sync --target claude-code --global --symlink
skillgit sync --dir ../agent-skills --channel canary
# Keep installing into ../app after every publish
skillgit sync --watch --remote origin --project ../app
skillgit sync --list-targets`,

	"skillgit pack": `
skillgit pack add docs https://github.com/example/doc-skills --ref v1
skillgit pack update docs
skillgit pack list`,

	"skillgit pack add": `
skillgit pack add docs https://github.com/example/doc-skills
skillgit pack add tools git@example.com:team/skills.git --ref stable --path agent-skills
skillgit pack add anthropic anthropics/skills --exclude 'claude-*'
skillgit pack add pdf https://github.com/anthropics/skills/tree/main/skills/pdf
skillgit pack add openai openai/skills --path skills/.system --prefix openai-
skillgit pack add local ../vendor-skills --lenient`,

	"skillgit pack preview": `
skillgit pack preview anthropics/skills
skillgit pack preview ../vendor-skills --include 'pdf*' --json`,

	"skillgit pack update": `
# Fetch every pack and propose what changed
skillgit pack update
skillgit pack update docs --json
# Admit, this time, skills the validator refuses but agents load
skillgit pack update docs --lenient`,

	"skillgit pack list": `
skillgit pack list
skillgit pack list --json`,

	"skillgit pack remove": `
skillgit pack remove docs`,

	"skillgit fetch": `
skillgit fetch
skillgit fetch upstream --json`,

	"skillgit push": `
skillgit push
skillgit push origin pdf-tools-7f3a
# Show the server's messages and audit progress, also in a log
skillgit push origin --progress`,

	"skillgit hooks": `
skillgit hooks install
skillgit hooks status --json
skillgit hooks uninstall`,

	"skillgit hooks install": `
skillgit hooks install
skillgit -C ~/skills hooks install --json`,

	"skillgit hooks uninstall": `
skillgit hooks uninstall`,

	"skillgit hooks status": `
skillgit hooks status
skillgit hooks status --json`,

	"skillgit hook": `
# What the installed pre-commit hook runs
skillgit hook pre-commit
# Audit every skill the index holds, as a CI check
skillgit hook pre-commit --all-files`,

	"skillgit mcp": `
# In an agent's MCP settings
skillgit -C ~/skills mcp --author "Agent <agent@example.com>"`,

	"skillgit doctor": `
# After a command was interrupted: what it left behind
skillgit doctor
# Remove what is safe to remove; say what is left and why
skillgit doctor --fix
# In the skill repository, with the targets of an application project
skillgit doctor --project ../app --json`,
}

// applyExamples sets the Example of every command that examples knows.
func applyExamples(c *cobra.Command) {
	if ex, ok := examples[c.CommandPath()]; ok {
		c.Example = indentExample(ex)
	}
	for _, sub := range c.Commands() {
		applyExamples(sub)
	}
}

// indentExample drops the leading newline of a table entry and indents each line as cobra
// shows examples.
func indentExample(ex string) string {
	lines := strings.Split(strings.TrimPrefix(ex, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}
