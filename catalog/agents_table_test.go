package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentDirsDoc is the fact sheet the embedded table is made from; it lies beside the
// project's root on every machine.
const agentDirsDoc = "../../shared/AGENT-DIRS.md"

// TestAgentTableMatchesFactSheet checks that every agent of the install table in
// AGENT-DIRS.md is in the embedded table with the same project folder, and that the table
// passes its own checks.
func TestAgentTableMatchesFactSheet(t *testing.T) {
	data, err := os.ReadFile(filepath.FromSlash(agentDirsDoc))
	if err != nil {
		t.Fatalf("reading the fact sheet: %v", err)
	}
	table, err := Agents(nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := installRows(string(data))
	if len(rows) < 70 {
		t.Fatalf("found %d rows in the install table of %s; the parser no longer fits the file", len(rows), agentDirsDoc)
	}
	for id, project := range rows {
		a, ok := FindAgent(table, id)
		switch {
		case !ok:
			t.Errorf("%s: in %s but not in the agent table", id, agentDirsDoc)
		case a.Project != project:
			t.Errorf("%s: project folder %q; the fact sheet says %q", id, a.Project, project)
		}
	}
	for _, a := range table {
		if err := CheckAgent(a); err != nil {
			t.Errorf("%s: %v", a.ID, err)
		}
	}
}

// installRows reads the "Install folders by agent id" table: agent id to project folder.
func installRows(doc string) map[string]string {
	_, section, _ := strings.Cut(doc, "## Install folders by agent id")
	rows := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		id, project := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[3])
		if id == "" || id == "agent id" || strings.HasPrefix(id, "---") {
			continue
		}
		rows[id] = project
	}
	return rows
}
