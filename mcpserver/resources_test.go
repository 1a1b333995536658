package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
)

func TestResources(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	publishSkill(t, dir, "greeting", "Say hello.")
	c := connect(t, dir)
	ctx := context.Background()

	if got := resourceURIs(t, c); got != "skillgit://skill/dates skillgit://skill/greeting" {
		t.Fatalf("resources: %s", got)
	}
	tmpl, err := c.cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "skillgit://skill/{name}" {
		t.Fatalf("resource templates: %+v, %v", tmpl, err)
	}
	res, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skillgit://skill/dates"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Contents[0]; got.Text != testenv.SkillMD("dates", cleanLine) || got.MIMEType != "text/markdown" || got.URI != "skillgit://skill/dates" {
		t.Fatalf("read resource: %+v", got)
	}
	for _, uri := range []string{"skillgit://skill/nope", "skillgit://skill/a%2Fb", "skillgit://other/dates"} {
		if _, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("read %s: %v; want not found", uri, err)
		}
	}

	// A publish made by a person outside the server shows up in the next listing and read.
	publishSkill(t, dir, "weather", "Look at the sky.")
	if got := resourceURIs(t, c); got != "skillgit://skill/dates skillgit://skill/greeting skillgit://skill/weather" {
		t.Fatalf("resources after a publish elsewhere: %s", got)
	}
	res, err = c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skillgit://skill/weather"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "Look at the sky.") {
		t.Fatalf("read the new skill: %+v, %v", res, err)
	}
}

func resourceURIs(t *testing.T, c *client) string {
	t.Helper()
	var uris []string
	for r, err := range c.cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if r.MIMEType != "text/markdown" || r.Description == "" {
			t.Errorf("resource %+v", r)
		}
		uris = append(uris, r.URI)
	}
	return strings.Join(uris, " ")
}
