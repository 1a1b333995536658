package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/internal/lifecycletest"
)

// wantRequired is every tool and the arguments its schema requires.
var wantRequired = map[string][]string{
	"list_skills":       nil,
	"read_skill":        {"name"},
	"match_skills":      nil,
	"get_mode":          nil,
	"list_candidates":   nil,
	"review_candidate":  {"id"},
	"create_candidate":  nil,
	"patch_candidate":   {"id", "message"},
	"delete_candidate":  {"message", "name"},
	"publish_candidate": {"id"},
	"rollback_skill":    {"name"},
}

func TestInitializeAndListTools(t *testing.T) {
	c := connect(t, lifecycletest.NewRepo(t))
	init := c.cs.InitializeResult()
	if init.ServerInfo.Name != "skillgit" || init.ServerInfo.Version != "test" || init.Instructions == "" {
		t.Fatalf("initialize: server %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
	if init.Capabilities.Tools == nil || init.Capabilities.Resources == nil {
		t.Fatalf("capabilities %+v: want tools and resources", init.Capabilities)
	}
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, tool := range res.Tools {
		var schema struct {
			Type       string         `json:"type"`
			Required   []string       `json:"required"`
			Properties map[string]any `json:"properties"`
		}
		data, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(data, &schema); err != nil || schema.Type != "object" {
			t.Fatalf("%s: input schema %s: %v", tool.Name, data, err)
		}
		for _, req := range schema.Required {
			if _, ok := schema.Properties[req]; !ok {
				t.Errorf("%s: required %q has no property", tool.Name, req)
			}
		}
		slices.Sort(schema.Required)
		got[tool.Name] = schema.Required
		if tool.Description == "" || tool.OutputSchema == nil {
			t.Errorf("%s: description %q, output schema %v", tool.Name, tool.Description, tool.OutputSchema)
		}
	}
	if diff := cmp.Diff(wantRequired, got); diff != "" {
		t.Fatalf("tools and their required arguments (-want +got):\n%s", diff)
	}
}

// TestSchemaLimits checks that the limits the tools enforce are in their schemas, where a
// client can see them.
func TestSchemaLimits(t *testing.T) {
	c := connect(t, lifecycletest.NewRepo(t))
	tools := map[string]*mcp.Tool{}
	for tool, err := range c.cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	for _, tc := range []struct{ tool, path, want string }{
		{"create_candidate", "properties.name.maxLength", "64"},
		{"create_candidate", "properties.description.maxLength", "1024"},
		{"create_candidate", "properties.body.maxLength", "262144"},
		{"create_candidate", "properties.files.maxItems", "64"},
		{"create_candidate", "properties.files.items.properties.content.maxLength", "262144"},
		{"create_candidate", "properties.files.items.required", `["path","content"]`},
		{"match_skills", "properties.limit.minimum", "1"},
		{"match_skills", "properties.limit.maximum", "100"},
		{"match_skills", "properties.step.enum", `["implementation","review"]`},
		{"list_candidates", "properties.state.enum", `["open","approved","rejected","published","rolled-back","canary","all"]`},
		{"publish_candidate", "properties.channel.enum", `["main","canary"]`},
		{"review_candidate", "additionalProperties", "false"},
	} {
		data, _ := json.Marshal(tools[tc.tool].InputSchema)
		if got := jsonAt(t, data, tc.path); got != tc.want {
			t.Errorf("%s: %s = %s; want %s", tc.tool, tc.path, got, tc.want)
		}
	}
}

// jsonAt returns the JSON at a dotted path of data.
func jsonAt(t *testing.T, data []byte, path string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range strings.Split(path, ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	out, _ := json.Marshal(v)
	return string(out)
}
