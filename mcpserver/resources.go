package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// Published skills are resources at skillgit://skill/NAME, their SKILL.md as Markdown.
const (
	resourcePrefix   = "skillgit://skill/"
	resourceTemplate = resourcePrefix + "{name}"
	markdown         = "text/markdown"
)

// resourceSet is what the server lists as resources, and the published tree it came from.
type resourceSet struct {
	tree string
	// listed maps each listed URI to the description it was listed with.
	listed map[string]string
}

func (s *Server) addResources() error {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{Name: "skill", Title: "Published skill", URITemplate: resourceTemplate,
		MIMEType: markdown, Description: "The SKILL.md of a published skill, by name. Every published skill can be read here, also past the first 1000 that are listed."},
		s.readResource)
	s.mcp.AddReceivingMiddleware(s.refreshListing)
	s.mu.Lock()
	defer s.mu.Unlock()
	// A skill git cannot read fails the tools that list or read skills, each saying so, and
	// the listing is tried again on resources/list; the server still starts.
	if err := s.syncResources(); err != nil && !errors.Is(err, published.ErrUnreadableSkill) {
		return err
	}
	return nil
}

// refreshListing brings the resource list up to date with the publish branch before the
// server answers resources/list.
func (s *Server) refreshListing(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "resources/list" {
			s.mu.Lock()
			if !s.closed && s.repo.Refresh() == nil {
				s.syncResources() // on failure the previous listing stands
			}
			s.mu.Unlock()
		}
		return next(ctx, method, req)
	}
}

// syncResources lists the published skills (the first maxListed) as resources, when the
// published tree changed since the last time. The caller holds s.mu.
func (s *Server) syncResources() error {
	tree := s.repo.Tree().String()
	if s.res.listed != nil && s.res.tree == tree {
		return nil
	}
	pub, err := s.repo.Published().List()
	if err != nil {
		return err
	}
	want := map[string]string{}
	for i, sk := range pub.Skills {
		if i == maxListed {
			break
		}
		uri := skillURI(sk.Name)
		want[uri] = sk.Description
		if desc, ok := s.res.listed[uri]; !ok || desc != sk.Description {
			s.mcp.AddResource(&mcp.Resource{URI: uri, Name: sk.Name, Title: sk.Name, Description: sk.Description, MIMEType: markdown}, s.readResource)
		}
	}
	var gone []string
	for uri := range s.res.listed {
		if _, ok := want[uri]; !ok {
			gone = append(gone, uri)
		}
	}
	s.mcp.RemoveResources(gone...)
	s.res = resourceSet{tree: tree, listed: want}
	return nil
}

func skillURI(name string) string { return resourcePrefix + url.PathEscape(name) }

// nameOfURI returns the skill name a resource URI names.
func nameOfURI(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, resourcePrefix)
	if !ok {
		return "", false
	}
	name, err := url.PathUnescape(rest)
	if err != nil || name == "" || len(name) > 4*maxNameLen || strings.ContainsAny(name, "/?#") {
		return "", false
	}
	return name, true
}

func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := nameOfURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	var data []byte
	err := s.withRepo(func(r *lifecycle.Repo) (err error) {
		defer recoverTo(&err, "resources/read")
		pub := r.Published()
		sk, err := pub.Find(name)
		if err != nil {
			return err
		}
		data, err = pub.Content(sk)
		return err
	})
	if errors.Is(err, lifecycle.ErrNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: markdown, Text: string(data)}}}, nil
}
