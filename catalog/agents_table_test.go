package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentFolders lists, for each agent id, the project folder its documentation names. It is
// test data kept with the code: when an agent moves its folder, the list and the table
// change together.
const agentFolders = "testdata/agent-folders.tsv"

// TestAgentTableMatchesFacts checks that every agent of the list is in the embedded table
// with the same project folder, and that the table passes its own checks.
func TestAgentTableMatchesFacts(t *testing.T) {
	data, err := os.ReadFile(filepath.FromSlash(agentFolders))
	if err != nil {
		t.Fatalf("reading the agent facts: %v", err)
	}
	table, err := Agents(nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := folderRows(string(data))
	if err != nil {
		t.Fatalf("%s: %v", agentFolders, err)
	}
	if len(rows) < 70 {
		t.Fatalf("%s lists %d agents; it should list every agent the table knows", agentFolders, len(rows))
	}
	for id, project := range rows {
		a, ok := FindAgent(table, id)
		switch {
		case !ok:
			t.Errorf("%s: in %s but not in the agent table", id, agentFolders)
		case a.Project != project:
			t.Errorf("%s: project folder %q; %s says %q", id, a.Project, agentFolders, project)
		}
	}
	for _, a := range table {
		if err := CheckAgent(a); err != nil {
			t.Errorf("%s: %v", a.ID, err)
		}
	}
}

// folderRows reads the list: one "id<TAB>project folder" a line, # comments and blank
// lines aside. A line of another shape, or an id listed twice, is an error.
func folderRows(doc string) (map[string]string, error) {
	rows := map[string]string{}
	for n, line := range strings.Split(doc, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, project, ok := strings.Cut(line, "\t")
		if !ok || id == "" || project == "" || strings.Contains(project, "\t") {
			return nil, fmt.Errorf("line %d: want an id, a tab and a folder: %q", n+1, line)
		}
		if _, dup := rows[id]; dup {
			return nil, fmt.Errorf("line %d: %s is listed twice", n+1, id)
		}
		rows[id] = project
	}
	return rows, nil
}
