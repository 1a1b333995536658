package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/skillgit/skillgit/audit"
)

// A labelled set is a folder of skills with a manifest, one line per skill:
//
//	KIND<TAB>NAME<TAB>CLASS<TAB>EXPECTED<TAB>what it does
//
// KIND is the subfolder the skill is in (malicious, benign), EXPECTED the
// severity it should reach at least (critical, high, medium) or "none" for
// a benign skill, which should stay below high. runManifest audits every
// skill and prints, per kind and class, how many reach each severity and
// how many meet what is expected, then the skills that do not.

// labelled is one skill of a labelled set and its result.
type labelled struct {
	kind, name, class, want string
	got                     audit.Severity
	high                    []string // rules at high or above
	err                     error
}

func runManifest(w io.Writer, manifest string) error {
	set, err := readManifest(manifest)
	if err != nil {
		return err
	}
	root := filepath.Dir(manifest)
	for i := range set {
		set[i].got, set[i].high, set[i].err = worst(filepath.Join(root, set[i].kind, set[i].name))
	}
	printLabelled(w, set)
	return nil
}

func readManifest(path string) ([]labelled, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 4 || strings.HasPrefix(c[0], "#") {
			continue
		}
		if strings.ContainsAny(c[0]+c[1], `/\`) || c[1] == ".." {
			return nil, fmt.Errorf("%s:%d: kind and name must be plain folder names", path, n)
		}
		out = append(out, labelled{kind: c[0], name: c[1], class: c[2], want: c[3]})
	}
	return out, sc.Err()
}

// worst audits one skill and returns its most severe finding's severity and the rules at high or above.
func worst(dir string) (audit.Severity, []string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return 0, nil, err
	}
	defer root.Close()
	rep, err := audit.Scan(root.FS(), audit.Options{Skill: filepath.Base(dir)})
	if err != nil {
		return 0, nil, err
	}
	max, high := audit.Info, []string{}
	for _, f := range rep.Findings {
		max = maxSeverity(max, f.Severity)
		if f.Severity >= audit.High && !slices.Contains(high, f.RuleID) {
			high = append(high, f.RuleID)
		}
	}
	return max, high, nil
}

func maxSeverity(a, b audit.Severity) audit.Severity {
	if b > a {
		return b
	}
	return a
}

// meets reports whether a result is what the manifest expects.
func (l labelled) meets() bool {
	switch l.want {
	case "none":
		return l.got < audit.High
	case "critical":
		return l.got >= audit.Critical
	case "high":
		return l.got >= audit.High
	case "medium":
		return l.got >= audit.Medium
	}
	return false
}

func printLabelled(w io.Writer, set []labelled) {
	type key struct{ kind, class, want string }
	counts := map[key]*[6]int{} // n, critical, high, medium, below, met
	var keys []key
	for _, l := range set {
		k := key{l.kind, l.class, l.want}
		c, ok := counts[k]
		if !ok {
			c = &[6]int{}
			counts[k] = c
			keys = append(keys, k)
		}
		c[0]++
		switch {
		case l.got >= audit.Critical:
			c[1]++
		case l.got >= audit.High:
			c[2]++
		case l.got >= audit.Medium:
			c[3]++
		default:
			c[4]++
		}
		if l.meets() {
			c[5]++
		}
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.kind+a.class, b.kind+b.class) })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tclass\texpected\tskills\tcritical\thigh\tmedium\tlow\tmet")
	for _, k := range keys {
		c := counts[k]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d/%d\n", k.kind, k.class, k.want, c[0], c[1], c[2], c[3], c[4], c[5], c[0])
	}
	tw.Flush()
	for _, l := range set {
		switch {
		case l.err != nil:
			fmt.Fprintf(w, "error %s/%s: %v\n", l.kind, l.name, l.err)
		case !l.meets():
			fmt.Fprintf(w, "missed %s/%s (class %s): want %s, got %s %v\n", l.kind, l.name, l.class, l.want, l.got, l.high)
		}
	}
}
