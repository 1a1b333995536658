package genrepo

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
)

// rngFor returns the random source for one part of one skill, so that any version of any skill
// can be rendered again, in any order, from the seed alone.
func rngFor(seed uint64, name string, part uint64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()^part*0x9e3779b97f4a7c15))
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// topic is what a skill is about, derived from its name.
type topic struct {
	domain, action, object, adjective string
}

func topicFor(r *rand.Rand, name string) topic {
	parts := strings.Split(name, "-")
	t := topic{domain: parts[0], action: pick(r, actions), object: pick(r, objects), adjective: pick(r, adjectives)}
	if len(parts) > 1 {
		t.action = parts[1]
	}
	return t
}

// renderSkill returns the SKILL.md of version v (1 is the first) of the skill called name.
func renderSkill(seed uint64, name string, v int) []byte {
	r := rngFor(seed, name, 0)
	t := topicFor(r, name)
	var b strings.Builder
	writeFrontmatter(&b, r, name, t, v)
	writeBody(&b, r, name, t)
	writeChangelog(&b, seed, name, t, v)
	return []byte(b.String())
}

func writeFrontmatter(b *strings.Builder, r *rand.Rand, name string, t topic, v int) {
	purpose := fmt.Sprintf(pick(r, purposeTemplates), t.object, t.adjective)
	desc := fmt.Sprintf(pick(r, descTemplates), capitalize(t.action), t.object, t.domain,
		capitalize(purpose), t.action, t.object, t.adjective)
	fmt.Fprintf(b, "---\nname: %s\ndescription: %s\n", name, yamlString(desc))
	if r.IntN(2) == 0 {
		fmt.Fprintf(b, "license: %s\n", yamlString(pick(r, licenses)))
	}
	if r.IntN(10) == 0 {
		fmt.Fprintf(b, "compatibility: %s\n", yamlString("Requires "+t.domain+" tooling and network access to the project's registry"))
	}
	author := pick(r, people)
	fmt.Fprintf(b, "metadata:\n  author: %s\n  version: \"1.%d\"\n", yamlString(author.name), v-1)
	if r.IntN(5) == 0 {
		fmt.Fprintf(b, "allowed-tools: %s\n", allowedTools(r))
	}
	b.WriteString("---\n\n")
}

func allowedTools(r *rand.Rand) string {
	n := 1 + r.IntN(4)
	seen := map[string]bool{}
	var out []string
	for range n {
		tool := pick(r, tools)
		if !seen[tool] {
			seen[tool] = true
			out = append(out, tool)
		}
	}
	return strings.Join(out, " ")
}

func writeBody(b *strings.Builder, r *rand.Rand, name string, t topic) {
	target := 1300 + r.IntN(1400)
	start := b.Len()
	fmt.Fprintf(b, "# %s\n\n%s %s\n\n", title(name), sentence(r, t), sentence(r, t))
	b.WriteString("## When to use\n\n")
	for range 3 + r.IntN(3) {
		fmt.Fprintf(b, "- The task involves %s %s in a %s project.\n", pick(r, adjectives), pick(r, objects), t.domain)
	}
	b.WriteString("\n## Steps\n\n")
	for i := 1; i <= 4+r.IntN(4); i++ {
		fmt.Fprintf(b, "%d. %s\n", i, sentence(r, t))
	}
	fmt.Fprintf(b, "\n## Example\n\n```bash\n%s\n%s\n```\n\n## Notes\n\n", pick(r, commands), pick(r, commands))
	for b.Len()-start < target {
		fmt.Fprintf(b, "%s ", sentence(r, t))
	}
	b.WriteString("\n")
}

func writeChangelog(b *strings.Builder, seed uint64, name string, t topic, v int) {
	if v < 2 {
		return
	}
	b.WriteString("\n## Changelog\n\n")
	for i := v; i >= 2; i-- {
		r := rngFor(seed, name, uint64(i))
		fmt.Fprintf(b, "- 1.%d: %s\n", i-1, sentence(r, t))
	}
}

func sentence(r *rand.Rand, t topic) string {
	return fmt.Sprintf(pick(r, sentenceTemplates), pick(r, verbsLong), pick(r, adjectives), t.object, t.domain)
}

// renderScript returns a helper script for the skill, named run.sh or run.py.
func renderScript(seed uint64, name, file string) []byte {
	r := rngFor(seed, name, 1<<32)
	t := topicFor(r, name)
	var b strings.Builder
	if strings.HasSuffix(file, ".py") {
		fmt.Fprintf(&b, "#!/usr/bin/env python3\n\"\"\"Helper for the %s skill: %s %s.\"\"\"\n\nimport subprocess\nimport sys\n\n\n", name, t.action, t.object)
		b.WriteString("def main() -> int:\n    steps = [\n")
		for range 3 + r.IntN(4) {
			fmt.Fprintf(&b, "        %s,\n", strconv.Quote(pick(r, commands)))
		}
		b.WriteString("    ]\n    for step in steps:\n        print(f\"+ {step}\", file=sys.stderr)\n")
		b.WriteString("        if subprocess.call(step, shell=True) != 0:\n            return 1\n    return 0\n\n\n")
		b.WriteString("if __name__ == \"__main__\":\n    sys.exit(main())\n")
		return []byte(b.String())
	}
	fmt.Fprintf(&b, "#!/usr/bin/env bash\n# Helper for the %s skill: %s %s.\nset -euo pipefail\n\n", name, t.action, t.object)
	for range 3 + r.IntN(4) {
		fmt.Fprintf(&b, "echo %s >&2\n%s\n", strconv.Quote("+ "+pick(r, commands)), pick(r, commands))
	}
	return []byte(b.String())
}

func title(name string) string {
	words := strings.Split(name, "-")
	for i, w := range words {
		words[i] = capitalize(w)
	}
	return strings.Join(words, " ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// yamlString writes s as a YAML scalar: plain when YAML reads it back unchanged, else quoted.
func yamlString(s string) string {
	if strings.ContainsAny(s, ":#\"'{}[],&*!|>%@`") || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return s
}
