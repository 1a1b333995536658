package policy

import (
	"strings"
	"testing"
)

// TestAgentScopeConfig checks that agent_scope takes skill name globs only.
func TestAgentScopeConfig(t *testing.T) {
	base := "publish_branch: main\nskills_dir: skills\nmode: manual\napprovals: {required: 1}\naudit: {fail_on: high}\nsync: {channel: main}\n"
	for _, good := range []string{"[learned-*]", "['learned-*', 'team-?', 'x[a-c]']"} {
		c, err := ParseConfig([]byte(base + "agent_scope: " + good + "\n"))
		if err != nil {
			t.Errorf("agent_scope %s: %v", good, err)
		} else if len(c.AgentScopeGlobs()) == 0 {
			t.Errorf("agent_scope %s: no globs", good)
		}
	}
	for _, bad := range []string{"['']", "['../x']", "['a/b']", "['Learned-*']", "['x[a-']", "['x\\y']", "['x y']"} {
		if _, err := ParseConfig([]byte(base + "agent_scope: " + bad + "\n")); err == nil || !strings.Contains(err.Error(), "agent_scope") {
			t.Errorf("agent_scope %s: %v; want an error naming agent_scope", bad, err)
		}
	}
	c, err := ParseConfig([]byte(base))
	if err != nil || strings.Join(c.AgentScopeGlobs(), ",") != "learned-*" {
		t.Fatalf("default agent scope: %v, %v", c, err)
	}
}
