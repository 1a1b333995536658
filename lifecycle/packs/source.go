package packs

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// Source is where a pack comes from, as `pack add` records it in the configuration.
type Source struct {
	// URL is a git URL, an scp-like ssh address or a local path relative to the
	// repository's top folder, written with forward slashes.
	URL string
	// Ref is the branch or tag a GitHub tree URL named; empty when the source named none.
	Ref string
	// Path is the folder inside the pack that a GitHub tree URL named; empty for the root.
	Path string
}

// schemes are the transports a pack may be fetched over.
var schemes = []string{"https://", "http://", "ssh://", "git://", "file://"}

// shorthand is GitHub's owner/repository form.
var shorthand = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9_.-]{1,100}$`)

// ParseSource reads the SOURCE of `pack add`: a git URL; owner/repo, meaning GitHub over
// https; a GitHub …/tree/REF/PATH address, split into URL, ref and path; or a local path.
// A local path is stored relative to root, the repository's top folder, because the
// configuration is shared with everyone who clones it; an absolute one is refused. dir is
// where skillgit runs: a relative path starts there.
func ParseSource(src, dir, root string) (Source, error) {
	if err := checkSourceText(src); err != nil {
		return Source{}, err
	}
	if err := gitauth.Check(src); err != nil {
		return Source{}, err
	}
	if strings.Contains(src, "://") {
		return parseURL(src)
	}
	if strings.Contains(src, "::") {
		return Source{}, fmt.Errorf("%q: remote helpers are not supported; use https://, ssh://, git:// or file://", src)
	}
	if c := strings.IndexByte(src, ':'); c > 0 && !strings.ContainsAny(src[:c], `/\`) {
		return Source{URL: src}, nil // user@host:path
	}
	if shorthand().MatchString(src) && !strings.HasPrefix(path.Base(src), ".") {
		return gitHubShorthand(src, dir)
	}
	return localSource(src, dir, root)
}

func checkSourceText(src string) error {
	switch {
	case src == "":
		return errors.New("the source is empty; give a git URL, owner/repo or a local path")
	case strings.HasPrefix(src, "-"):
		return fmt.Errorf("source %q starts with '-'", src)
	case strings.ContainsFunc(src, func(c rune) bool { return c < ' ' || c == 0x7f || c == ' ' }):
		return fmt.Errorf("source %q holds spaces or control characters", src)
	}
	return nil
}

func parseURL(u string) (Source, error) {
	ok := false
	for _, s := range schemes {
		ok = ok || strings.HasPrefix(u, s) && len(u) > len(s)
	}
	if !ok {
		return Source{}, fmt.Errorf("%q: use https://, http://, ssh://, git:// or file://", u)
	}
	if strings.ContainsAny(u, "?#") {
		return Source{}, fmt.Errorf("%q: a pack URL takes no query or fragment; give the repository's URL and use --ref and --path", u)
	}
	rest, isGitHub := strings.CutPrefix(u, "https://github.com/")
	if !isGitHub {
		return Source{URL: u}, nil
	}
	return gitHubURL(u, rest)
}

// gitHubURL splits https://github.com/OWNER/REPO[/tree|blob/REF[/PATH]].
func gitHubURL(u, rest string) (Source, error) {
	parts := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return Source{}, fmt.Errorf("%q names no repository; write https://github.com/OWNER/REPO", u)
	}
	repo := "https://github.com/" + parts[0] + "/" + parts[1]
	if len(parts) == 2 {
		return Source{URL: repo}, nil
	}
	kind := parts[2]
	if (kind != "tree" && kind != "blob") || len(parts) < 4 {
		return Source{}, fmt.Errorf("%q is not a repository or a folder of one; write https://github.com/OWNER/REPO or …/tree/REF/PATH", u)
	}
	src := Source{URL: repo, Ref: parts[3], Path: strings.Join(parts[4:], "/")}
	if kind == "blob" {
		if path.Base(src.Path) != "SKILL.md" {
			return Source{}, fmt.Errorf("%q points at a file; give the …/tree/ address of a skill's folder or of a folder of skills", u)
		}
		src.Path = path.Dir(src.Path)
	}
	if src.Path == "." {
		src.Path = ""
	}
	return src, nil
}

func gitHubShorthand(src, dir string) (Source, error) {
	if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(src))); err == nil {
		return Source{}, fmt.Errorf("%q is both a folder here and a GitHub repository name; write ./%s for the folder or https://github.com/%s for GitHub", src, src, src)
	}
	return Source{URL: "https://github.com/" + src}, nil
}

func localSource(src, dir, root string) (Source, error) {
	if filepath.IsAbs(src) {
		return Source{}, fmt.Errorf("%s is an absolute path; the configuration is shared with everyone who clones the repository, so give the path relative to this folder (for example ../vendor-skills) or a file:// URL", src)
	}
	abs := filepath.Join(dir, src)
	info, err := os.Stat(abs)
	if err != nil {
		return Source{}, fmt.Errorf("local pack %s: %w; give a git URL, owner/repo or an existing folder", src, err)
	}
	if !info.IsDir() {
		return Source{}, fmt.Errorf("local pack %s is not a folder", src)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return Source{}, fmt.Errorf("local pack %s: %w", src, err)
	}
	return Source{URL: filepath.ToSlash(rel)}, nil
}
