package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/lifecycle"
)

// Name is the implementation name the server reports to clients.
const Name = "skillgit"

// DefaultVersion is the version reported when Options.Version is empty.
const DefaultVersion = "dev"

// Via is what commits made through the server carry in their Skillgit-Via trailer.
const Via = "mcp"

// MaxLineLength bounds one JSON-RPC message read from the client, in bytes: room for the
// largest content create_candidate accepts, JSON-escaped.
const MaxLineLength = 32 << 20

// Options configures a Server.
type Options struct {
	// Author is who the server acts as, "Name <email>"; empty takes SKILLGIT_AUTHOR, then the
	// git identity of the repository.
	Author string
	// Version is the version reported to clients; empty reports DefaultVersion.
	Version string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Logger receives the protocol library's log; nil discards it. It must not write to the
	// transport's stream.
	Logger *slog.Logger
}

// Server is an MCP server over one skill repository. Its tools and resources share the
// repository under a lock, one call at a time.
type Server struct {
	mu     sync.Mutex
	repo   *lifecycle.Repo
	act    lifecycle.ActOptions
	getenv func(string) string
	mcp    *mcp.Server
	closed bool
	res    resourceSet
}

// errClosed answers calls that arrive while the server shuts down.
var errClosed = errors.New("skillgit mcp is shutting down; start it again")

// New builds a server over repo, which the caller keeps open while the server runs and
// closes afterwards.
func New(repo *lifecycle.Repo, o Options) (*Server, error) {
	if o.Author != "" {
		if _, _, err := lifecycle.ParseActor(o.Author); err != nil {
			return nil, fmt.Errorf("author: %w", err)
		}
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Version == "" {
		o.Version = DefaultVersion
	}
	s := &Server{repo: repo, getenv: o.Getenv,
		act: lifecycle.ActOptions{Author: o.Author, Via: Via, Getenv: o.Getenv, Unattended: true}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "skillgit", Version: o.Version},
		// No logging capability: the server sends no log messages to the client.
		&mcp.ServerOptions{Instructions: instructions, Logger: o.Logger, Capabilities: &mcp.ServerCapabilities{}})
	s.addReadTools()
	s.addCandidateTools()
	s.addProposeTools()
	s.addPublishTools()
	if err := s.addResources(); err != nil {
		return nil, err
	}
	return s, nil
}

// MCP returns the protocol server, to connect it to a transport of the caller's choice.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client on t until the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// Shutdown waits for the call in progress, if any, and refuses every later one, so that the
// caller can close the repository safely.
func (s *Server) Shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// withRepo runs fn on the repository under the lock, after reading the publish branch again
// so that publishes made by others are seen, and then brings the resource list up to date.
func (s *Server) withRepo(fn func(*lifecycle.Repo) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if err := s.repo.Refresh(); err != nil {
		return fmt.Errorf("reading the publish branch again: %w", err)
	}
	err := fn(s.repo)
	s.syncResources()
	return err
}

const instructions = `skillgit keeps this team's Agent Skills in a git repository and reviews every change.
Find a skill with match_skills (or list_skills) and load it with read_skill before a task.
To share what you learned, propose it with create_candidate (a new skill, or a new version of a
published one); answer review feedback with patch_candidate. get_mode says what the repository's
policy lets you do without a person. You cannot approve: medium- and high-risk changes, and
anything the mode does not automate, wait for a person (` + "`skillgit review ID`, `skillgit approve ID`" + `).`
