package catalog

import (
	_ "embed"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Agent says where one coding agent reads skills.
type Agent struct {
	// ID names the agent, such as "claude-code".
	ID string `yaml:"id"`
	// Name is the agent's display name.
	Name string `yaml:"name"`
	// Project is the folder skills are installed into, relative to the project root.
	Project string `yaml:"project"`
	// Global is the folder skills are installed into for every project: a path that starts
	// with "~/" (the home folder), "/" or "${VAR:-default}"; empty for a project-only agent.
	Global string `yaml:"global"`
	// AlsoProject lists the other project folders the agent reads.
	AlsoProject []string `yaml:"also_project"`
	// AlsoGlobal lists the other global folders the agent reads, written like Global.
	AlsoGlobal []string `yaml:"also_global"`
}

//go:embed agents.yaml
var agentsYAML []byte

var builtinAgents = sync.OnceValues(func() ([]Agent, error) {
	var doc struct {
		Agents []Agent `yaml:"agents"`
	}
	if err := yaml.Unmarshal(agentsYAML, &doc); err != nil {
		return nil, fmt.Errorf("built-in agent table: %w", err)
	}
	return doc.Agents, nil
})

// Agents returns the built-in agent table, sorted by ID, with overrides applied: an override
// whose ID is in the table replaces the fields it sets, and any other override is added.
func Agents(overrides []Agent) ([]Agent, error) {
	base, err := builtinAgents()
	if err != nil {
		return nil, err
	}
	out := slices.Clone(base)
	for _, o := range overrides {
		if err := CheckAgent(o); err != nil {
			return nil, err
		}
		i := slices.IndexFunc(out, func(a Agent) bool { return a.ID == o.ID })
		if i < 0 {
			out = append(out, o)
			continue
		}
		out[i] = out[i].merge(o)
	}
	slices.SortFunc(out, func(a, b Agent) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// FindAgent returns the agent with the given id from a table.
func FindAgent(table []Agent, id string) (Agent, bool) {
	i := slices.IndexFunc(table, func(a Agent) bool { return a.ID == id })
	if i < 0 {
		return Agent{}, false
	}
	return table[i], true
}

// merge returns a with the fields o sets.
func (a Agent) merge(o Agent) Agent {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&a.Name, o.Name)
	set(&a.Project, o.Project)
	set(&a.Global, o.Global)
	if o.AlsoProject != nil {
		a.AlsoProject = o.AlsoProject
	}
	if o.AlsoGlobal != nil {
		a.AlsoGlobal = o.AlsoGlobal
	}
	return a
}

// CheckAgent reports what is wrong with an agent entry of a configuration: its id must be
// lowercase letters, digits and hyphens, its project folders clean relative paths that stay
// in the project, and its global folders start with "~/", "/" or "${VAR:-default}".
func CheckAgent(a Agent) error {
	if err := ValidateName(a.ID); err != nil {
		return fmt.Errorf("agent id: %w", err)
	}
	for _, p := range append([]string{a.Project}, a.AlsoProject...) {
		if p != "" && !filepath.IsLocal(p) {
			return fmt.Errorf("agent %s: project folder %q must be a relative path inside the project", a.ID, p)
		}
	}
	for _, p := range append([]string{a.Global}, a.AlsoGlobal...) {
		if p != "" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "${") {
			return fmt.Errorf("agent %s: global folder %q must start with ~/, / or ${VAR:-default}", a.ID, p)
		}
	}
	return nil
}

// ProjectFolders returns every project folder the agent reads, its install folder first.
func (a Agent) ProjectFolders() []string {
	return nonEmpty(append([]string{a.Project}, a.AlsoProject...))
}

// GlobalFolders returns every global folder the agent reads, its install folder first,
// unexpanded.
func (a Agent) GlobalFolders() []string {
	return nonEmpty(append([]string{a.Global}, a.AlsoGlobal...))
}

func nonEmpty(in []string) []string {
	return slices.DeleteFunc(in, func(s string) bool { return s == "" })
}

// ExpandFolder turns a global folder of the agent table into an absolute path: a leading
// ${VAR:-default} becomes VAR's value when VAR is set and default otherwise, then a leading
// "~" becomes the home folder, which getenv("HOME") names.
func ExpandFolder(p string, getenv func(string) string) (string, error) {
	orig := p
	if strings.HasPrefix(p, "${") {
		end := strings.IndexByte(p, '}')
		if end < 0 {
			return "", fmt.Errorf("folder %q: unclosed ${", orig)
		}
		name, def, _ := strings.Cut(p[2:end], ":-")
		v := getenv(name)
		if v == "" {
			v = def
		}
		p = v + p[end+1:]
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("folder %q: HOME is not set; set it or pass --dir", orig)
		}
		p = home + p[1:]
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("folder %q expands to %q, which is not an absolute path", orig, p)
	}
	return filepath.Clean(p), nil
}
