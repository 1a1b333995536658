package genrepo

// The vocabulary that generated skills are made of. Names combine a domain, an action and
// sometimes a qualifier; prose picks sentence templates and fills them from the same lists, so
// that skills differ the way real ones do (topic, length, structure) without any randomness
// that would defeat compression or parsing in unrealistic ways.

var domains = []string{
	"pdf", "docx", "xlsx", "pptx", "csv", "json", "yaml", "toml", "markdown", "html",
	"git", "github", "gitlab", "docker", "compose", "k8s", "helm", "terraform", "ansible", "nginx",
	"postgres", "mysql", "sqlite", "redis", "kafka", "s3", "gcs", "lambda", "cloudrun", "azure",
	"react", "vue", "svelte", "nextjs", "tailwind", "css", "webpack", "vite", "node", "deno",
	"python", "django", "flask", "fastapi", "pandas", "numpy", "pytest", "poetry", "rust", "cargo",
	"go", "gomod", "java", "gradle", "maven", "kotlin", "swift", "xcode", "android", "flutter",
	"bash", "zsh", "make", "cmake", "bazel", "nix", "systemd", "cron", "ssh", "tls",
	"oauth", "jwt", "graphql", "grpc", "openapi", "rest", "webhook", "slack", "jira", "linear",
	"figma", "svg", "image", "video", "audio", "latex", "mermaid", "changelog", "release", "semver",
	"i18n", "a11y", "seo", "analytics", "logging", "metrics", "tracing", "sentry", "prometheus", "grafana",
}

var actions = []string{
	"review", "lint", "format", "migrate", "deploy", "debug", "test", "generate", "summarize", "audit",
	"refactor", "document", "profile", "benchmark", "scaffold", "convert", "extract", "validate", "triage", "monitor",
	"backup", "restore", "upgrade", "bisect", "translate", "annotate", "optimize", "secure", "package", "publish",
}

var qualifiers = []string{
	"basics", "advanced", "helper", "checklist", "workflow", "toolkit", "patterns", "guide", "recipes", "playbook",
	"fast", "safe", "strict", "minimal", "team", "ci", "local", "monorepo", "legacy", "v2",
}

var categories = []string{"review", "data", "ops", "docs", "frontend", "security"}

var objects = []string{
	"pull requests", "release notes", "configuration files", "database schemas", "test suites",
	"build scripts", "API clients", "error reports", "log files", "dependency manifests",
	"container images", "deployment manifests", "spreadsheets", "slide decks", "design tokens",
	"commit messages", "incident timelines", "migration plans", "style guides", "service contracts",
}

var verbsLong = []string{
	"Check", "Compare", "Collect", "Inspect", "Rewrite", "Split", "Merge", "Rename", "Record", "Verify",
	"List", "Run", "Read", "Open", "Update", "Pin", "Annotate", "Measure", "Archive", "Summarize",
}

var adjectives = []string{
	"failing", "flaky", "outdated", "duplicated", "unused", "large", "nested", "generated", "sensitive",
	"experimental", "deprecated", "missing", "slow", "inconsistent", "partial", "stale", "noisy", "critical",
}

var people = []struct{ name, email string }{
	{"Ada Lovelace", "ada@example.com"},
	{"Grace Hopper", "grace@example.com"},
	{"Alan Turing", "alan@example.org"},
	{"Katherine Johnson", "kj@example.net"},
	{"Edsger Dijkstra", "ewd@example.org"},
	{"Barbara Liskov", "liskov@example.com"},
	{"Ken Thompson", "ken@example.net"},
	{"Margaret Hamilton", "mh@example.com"},
	{"Donald Knuth", "knuth@example.org"},
	{"Frances Allen", "fran@example.com"},
	{"Dennis Ritchie", "dmr@example.net"},
	{"Radia Perlman", "radia@example.org"},
}

var licenses = []string{"Apache-2.0", "MIT", "BSD-3-Clause", "MPL-2.0", "Proprietary, see LICENSE.txt"}

var tools = []string{
	"Bash(git:*)", "Bash(npm:*)", "Bash(go:*)", "Bash(python:*)", "Bash(make:*)", "Read", "Write", "Edit",
	"Grep", "Glob", "WebFetch",
}

var descTemplates = []string{
	"%[1]s %[2]s for %[3]s projects: %[4]s. Use when the user asks to %[5]s %[6]s or mentions %[3]s.",
	"Helps %[5]s %[6]s in %[3]s codebases. %[4]s. Use this skill whenever %[7]s %[6]s show up in a task.",
	"Step-by-step %[3]s workflow to %[5]s %[6]s, with checks before and after. Trigger on requests about %[3]s %[6]s.",
	"%[4]s. Covers %[3]s tooling, common pitfalls and how to confirm the result. Use for %[7]s %[6]s.",
	"Guidance for agents that need to %[5]s %[6]s with %[3]s. Prefer it over ad-hoc commands when %[7]s %[6]s are involved.",
}

var purposeTemplates = []string{
	"keeps %[1]s consistent across the team",
	"turns %[2]s %[1]s into a short, reviewable change",
	"finds %[2]s %[1]s before they reach production",
	"explains what changed in %[1]s and why it matters",
	"automates the boring parts of handling %[1]s",
}

var sentenceTemplates = []string{
	"%[1]s the %[2]s %[3]s first, because later steps assume they are in a known state.",
	"If %[4]s reports %[2]s %[3]s, stop and show the user the exact output before changing anything.",
	"Keep each change small: one %[4]s concern per commit makes %[3]s easier to review.",
	"%[1]s every file you touched and confirm that %[4]s still builds without warnings.",
	"Do not edit %[2]s %[3]s by hand when a %[4]s command can regenerate them.",
	"When the repository has no %[4]s configuration, ask before creating one.",
	"Prefer the project's own scripts over global tools; they pin the %[4]s version the team uses.",
	"%[1]s the result against the previous run and explain any difference in one sentence.",
	"Large %[3]s are slow to process; work on a sample first and extrapolate.",
	"Never print secrets found in %[3]s; refer to them by file and line instead.",
}

var commands = []string{
	"git status --short", "git diff --stat", "make test", "go test ./...", "npm run lint", "pytest -q",
	"cargo clippy -- -D warnings", "terraform plan -out plan.bin", "kubectl diff -f manifests/",
	"docker build -t app:dev .", "jq '.items | length' report.json", "rg -n 'TODO' src/",
}
