package packs

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/internal/lazyregexp"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// The trailers and action of pack commits.
const (
	keyAction = ledger.KeyAction
	keyPack   = ledger.KeyPack
	keyVia    = ledger.KeyVia
	actPack   = "pack"
)

// packNamePattern is what a pack name looks like; "@" is left out because the Skillgit-Pack
// trailer joins the name and the commit with it.
var packNamePattern = lazyregexp.New(`^[a-z0-9][a-z0-9._-]{0,63}$`)

func checkPackName(name string) error {
	if !packNamePattern().MatchString(name) || strings.HasSuffix(name, ".lock") || strings.Contains(name, "..") {
		return fmt.Errorf("pack name %q: use lowercase letters, digits, '.', '_' and '-', at most 64", name)
	}
	return nil
}

// Status is a pack as the configuration records it, with its pin from the lock file.
type Status struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	Ref  string `json:"ref,omitempty"`
	Path string `json:"path,omitempty"`
	// Commit is the pack commit last fetched and proposed; empty before the first update.
	Commit string `json:"commit,omitempty"`
	// Skills are the skills that came from the pack.
	Skills []string `json:"skills"`
}

// List lists the packs of the configuration with their pins.
func List(r *lifecycle.Repo) ([]Status, error) {
	lock, err := readPackLock(r, r.Tree())
	if err != nil {
		return nil, err
	}
	out := make([]Status, 0, len(r.Config().Packs))
	for _, p := range r.Config().Packs {
		st := Status{Name: p.Name, URL: gitauth.Redact(p.URL), Ref: p.Ref, Path: p.Path, Skills: []string{}}
		if l := lock.get(p.Name); l != nil {
			st.Commit, st.Skills = l.Commit, append(st.Skills, l.Skills...)
		}
		out = append(out, st)
	}
	return out, nil
}

// Add records a pack in .skillgit.yaml with a commit on the publish branch. p.URL is the
// source as the user gave it (see ParseSource). Nothing is fetched: `skillgit pack update`
// does that.
func Add(r *lifecycle.Repo, p policy.Pack, o lifecycle.ActOptions) (*lifecycle.Result, error) {
	p, err := normalizePack(r, p)
	if err != nil {
		return nil, err
	}
	return packConfigCommit(r, o, p.Name, func() ([]byte, *packLock, string, error) {
		for _, q := range r.Config().Packs {
			if q.Name == p.Name {
				return nil, nil, "", fmt.Errorf("pack %s: already recorded (%s); `skillgit pack remove %s` first to change it", p.Name, q.URL, p.Name)
			}
		}
		data, err := editPacks(r, func(seq *yaml.Node) { seq.Content = append(seq.Content, packNode(p)) })
		desc := fmt.Sprintf("Adds pack %s: %s", p.Name, p.URL)
		for _, kv := range [][2]string{{"ref", p.Ref}, {"path", p.Path}, {"prefix", p.Prefix},
			{"include", strings.Join(p.Include, " ")}, {"exclude", strings.Join(p.Exclude, " ")}} {
			if kv[1] != "" {
				desc += ", " + kv[0] + " " + kv[1]
			}
		}
		if p.Lenient {
			desc += ", lenient"
		}
		return data, nil, "pack: add " + p.Name + "\n\n" + desc + ".\nNothing is fetched until `skillgit pack update " + p.Name + "`.", err
	})
}

// Remove drops a pack from .skillgit.yaml and its pin from the lock file with one commit on
// the publish branch. The skills it brought stay published, as skills of the repository.
func Remove(r *lifecycle.Repo, name string, o lifecycle.ActOptions) (*lifecycle.Result, error) {
	return packConfigCommit(r, o, name, func() ([]byte, *packLock, string, error) {
		if _, ok := pack(r, name); !ok {
			return nil, nil, "", fmt.Errorf("pack %s: %w in %s; `skillgit pack list` shows the packs", name, lifecycle.ErrNotFound, policy.ConfigFile)
		}
		data, err := editPacks(r, func(seq *yaml.Node) {
			kept := seq.Content[:0]
			for _, n := range seq.Content {
				if packNodeName(n) != name {
					kept = append(kept, n)
				}
			}
			seq.Content = kept
		})
		if err != nil {
			return nil, nil, "", err
		}
		lock, err := readPackLock(r, r.Tree())
		if err != nil {
			return nil, nil, "", err
		}
		if !lock.remove(name) {
			lock = nil
		}
		body := "Removes pack " + name + ". The skills it brought stay published; open candidates from it stay open."
		return data, lock, "pack: remove " + name + "\n\n" + body, nil
	})
}

// pack returns the configured pack called name.
func pack(r *lifecycle.Repo, name string) (policy.Pack, bool) {
	for _, p := range r.Config().Packs {
		if p.Name == name {
			return p, true
		}
	}
	return policy.Pack{}, false
}

// ErrSourceFlags marks --ref or --path given with a GitHub tree address that names another.
var ErrSourceFlags = errors.New("the source and the flags disagree")

// normalizePack checks a new pack and reads its source with ParseSource: a local path is
// stored relative to the repository's top folder.
func normalizePack(r *lifecycle.Repo, p policy.Pack) (policy.Pack, error) {
	if err := checkPackName(p.Name); err != nil {
		return p, err
	}
	dir, err := filepath.Abs(r.Dir())
	if err != nil {
		return p, err
	}
	root, err := filepath.Abs(configBase(r))
	if err != nil {
		return p, err
	}
	src, err := ParseSource(p.URL, dir, root)
	if err != nil {
		return p, fmt.Errorf("pack %s: %w", p.Name, err)
	}
	if p, err = mergeSource(p, src); err != nil {
		return p, err
	}
	if p.Ref != "" && !policy.ValidBranchName(p.Ref) {
		return p, fmt.Errorf("pack %s: ref %q is not a valid branch or tag name", p.Name, p.Ref)
	}
	if p.Path != "" {
		if err := policy.CheckRelDir("path", p.Path); err != nil {
			return p, fmt.Errorf("pack %s: %w", p.Name, err)
		}
	}
	return p, policy.CheckPackSelection(p)
}

// mergeSource takes the URL of src, and its ref and path where the flags gave none.
func mergeSource(p policy.Pack, src Source) (policy.Pack, error) {
	raw := p.URL
	p.URL = src.URL
	for _, f := range []struct {
		flag      string
		given, in *string
	}{{"--ref", &p.Ref, &src.Ref}, {"--path", &p.Path, &src.Path}} {
		switch {
		case *f.in == "":
		case *f.given == "":
			*f.given = *f.in
		case *f.given != *f.in:
			return p, fmt.Errorf("pack %s: %w: %s %s, but %s names %q; drop one of them", p.Name, ErrSourceFlags, f.flag, *f.given, raw, *f.in)
		}
	}
	return p, nil
}

// packSchemes are the transports a pack may be fetched over.
var packSchemes = []string{"https://", "http://", "ssh://", "git://", "file://"}

// normalizeURL accepts https, http, ssh, git and file URLs, scp-like ssh addresses and local
// paths, which it makes absolute against base. A URL that holds credentials is refused.
func normalizeURL(u, base string) (string, error) {
	if err := gitauth.Check(u); err != nil {
		return "", err
	}
	switch {
	case u == "":
		return "", fmt.Errorf("the URL is empty")
	case strings.HasPrefix(u, "-"):
		return "", fmt.Errorf("URL %q starts with '-'", u)
	case strings.ContainsFunc(u, func(c rune) bool { return c < ' ' || c == 0x7f || c == ' ' }):
		return "", fmt.Errorf("URL %q holds spaces or control characters", u)
	}
	if i := strings.Index(u, "://"); i >= 0 {
		for _, s := range packSchemes {
			if strings.HasPrefix(u, s) && len(u) > len(s) {
				return u, nil
			}
		}
		return "", fmt.Errorf("URL %q: use https://, http://, ssh://, git:// or file://", u)
	}
	if strings.Contains(u, "::") {
		return "", fmt.Errorf("URL %q: remote helpers are not supported; use https://, ssh://, git:// or file://", u)
	}
	if c := strings.IndexByte(u, ':'); c > 0 && !strings.Contains(u[:c], "/") {
		return u, nil // user@host:path
	}
	if filepath.IsAbs(u) {
		return filepath.Clean(u), nil
	}
	return filepath.Join(base, u), nil
}

// packNode renders a pack as a flow mapping, as the example configuration writes it.
func packNode(p policy.Pack) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	maxBytes, lenient := "", ""
	if p.MaxBytes > 0 {
		maxBytes = strconv.FormatInt(p.MaxBytes, 10)
	}
	if p.Lenient {
		lenient = "true"
	}
	scalar := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }
	for _, kv := range [][2]string{{"name", p.Name}, {"url", p.URL}, {"ref", p.Ref}, {"path", p.Path}, {"max_bytes", maxBytes}, {"prefix", p.Prefix}} {
		if kv[1] != "" {
			n.Content = append(n.Content, scalar(kv[0]), scalar(kv[1]))
		}
	}
	for _, kv := range []struct {
		key   string
		globs []string
	}{{"include", p.Include}, {"exclude", p.Exclude}} {
		if len(kv.globs) == 0 {
			continue
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, g := range kv.globs {
			seq.Content = append(seq.Content, scalar(g))
		}
		n.Content = append(n.Content, scalar(kv.key), seq)
	}
	if lenient != "" {
		n.Content = append(n.Content, scalar("lenient"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: lenient})
	}
	return n
}

func packNodeName(n *yaml.Node) string {
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// editPacks edits the packs list of the published .skillgit.yaml, keeping the rest of the
// document and its comments, and checks the result.
func editPacks(r *lifecycle.Repo, edit func(seq *yaml.Node)) ([]byte, error) {
	data, _, err := r.FileAt(r.Tree(), policy.ConfigFile, policy.MaxConfigSize, gitstore.ShortRef(r.Branch()))
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", policy.ConfigFile, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: the file is not a mapping of keys to values", policy.ConfigFile)
	}
	edit(packsSeq(doc.Content[0]))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if _, err := policy.ParseConfig(b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// packsSeq returns the sequence under the top-level key packs, adding it when missing or null.
func packsSeq(top *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "packs" {
			continue
		}
		v := top.Content[i+1]
		if v.Kind != yaml.SequenceNode {
			*v = yaml.Node{Kind: yaml.SequenceNode, Line: v.Line, Column: v.Column}
		}
		v.Style = 0
		return v
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "packs"}, seq)
	return seq
}

// packConfigCommit commits the configuration (and the lock file, when not nil) that build
// computes from the current publish branch, retrying when another process moves the branch.
// build returns the message as subject, blank line, body.
func packConfigCommit(r *lifecycle.Repo, o lifecycle.ActOptions, name string, build func() ([]byte, *packLock, string, error)) (*lifecycle.Result, error) {
	sig, warn, err := r.Actor(o)
	if err != nil {
		return nil, err
	}
	res, err := lifecycle.RetryCAS(r, func() (*lifecycle.Result, error) {
		cfg, lock, msg, err := build()
		if err != nil {
			return nil, err
		}
		return commitPackFiles(r, sig, o, cfg, lock, msg, name)
	})
	if err != nil {
		return nil, err
	}
	addWarning(res, warn)
	return res, nil
}

// commitPackFiles writes a pack commit on the publish branch that replaces the configuration
// and the lock file where given, and moves the branch by compare-and-swap. With server.protect
// on, the change is proposed as a policy candidate instead.
func commitPackFiles(r *lifecycle.Repo, sig object.Signature, o lifecycle.ActOptions, cfg []byte, lock *packLock, msg, packValue string) (*lifecycle.Result, error) {
	tree := r.Tree()
	var paths []string
	put := func(p string, data []byte) error {
		blob, err := r.Git().Writes().WriteBlob(data)
		if err != nil {
			return err
		}
		tree, err = r.Git().Writes().ReplacePath(tree, p, &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
		paths = append(paths, p)
		return err
	}
	if cfg != nil {
		if err := put(policy.ConfigFile, cfg); err != nil {
			return nil, err
		}
	}
	if lock != nil {
		if err := put(LockFile, lock.marshal()); err != nil {
			return nil, err
		}
	}
	subject, body, _ := strings.Cut(msg, "\n\n")
	if r.Config().Server.Protect {
		return r.ProposePolicy(tree, strings.TrimSpace(subject+"\n\n"+body), lifecycle.ProposeOptions{ActOptions: o})
	}
	h, err := lifecycle.CommitOnBranch(r, sig, tree, packCommitMessage(subject, body, packValue, o), paths)
	if err != nil {
		return nil, err
	}
	return &lifecycle.Result{Action: actPack, Commit: h.String(), Channel: gitstore.ShortRef(r.Branch())}, nil
}

// packCommitMessage is the message of a pack commit: subject, body and the trailers that say
// it is a pack commit, of which pack, and through what it was made.
func packCommitMessage(subject, body, packValue string, o lifecycle.ActOptions) string {
	ts := []gitstore.Trailer{{Key: keyAction, Value: actPack}, {Key: keyPack, Value: packValue}}
	if o.Via != "" {
		ts = append(ts, gitstore.Trailer{Key: keyVia, Value: o.Via})
	}
	return gitstore.FormatMessage(subject, body, ts)
}

// addWarning adds w to the warnings of res unless it is empty.
func addWarning(res *lifecycle.Result, w string) {
	if w != "" {
		res.Warnings = append(res.Warnings, w)
	}
}
