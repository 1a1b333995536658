// Command calibrate audits every skill under the folders it is given and
// prints, per folder, how many skills it holds, how many come out at each
// risk and which rules decide those risks. It calibrates the audit against
// real skill collections, which are read from a path and never committed.
//
//	go run ./bench/calibrate [-list high|medium] [-json] FOLDER...
//	go run ./bench/calibrate -manifest SET/manifest.tsv
//
// With -manifest it audits a labelled set instead (see manifest.go) and
// prints, per class, how many skills reach the severity the set expects.
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/skillgit/skillgit/audit"
)

func main() {
	list := flag.String("list", "", "also list the skills at this risk (high or medium) with their deciding findings")
	asJSON := flag.Bool("json", false, "print the table as JSON")
	top := flag.Int("top", 4, "rules shown per risk in the table")
	manifest := flag.String("manifest", "", "audit the labelled set this manifest describes instead of folders")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: calibrate [-list high|medium] [-json] [-top N] FOLDER...\n       calibrate -manifest SET/manifest.tsv")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *manifest != "" {
		if err := runManifest(os.Stdout, *manifest); err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var rows []row
	for _, dir := range flag.Args() {
		r, err := calibrate(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
			os.Exit(1)
		}
		rows = append(rows, r)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rows)
	} else {
		printTable(os.Stdout, rows, *top)
	}
	if *list != "" {
		printList(os.Stdout, rows, *list)
	}
}

// row is the result for one folder of skills.
type row struct {
	Folder string `json:"folder"`
	Skills int    `json:"skills"`
	High   int    `json:"high"`
	Medium int    `json:"medium"`
	Low    int    `json:"low"`
	Errors int    `json:"errors"`
	// Unnamed counts the medium skills whose risk some rule decides that
	// is not one of the named reasons: scripts, unrestricted tools,
	// archives, active content, opaque binaries.
	Unnamed int            `json:"medium_unnamed"`
	Rules   map[string]int `json:"rules"` // rule id -> skills whose risk it decides
	Bytes   int64          `json:"bytes"`
	items   []item
}

// item is one audited skill.
type item struct {
	path   string
	risk   audit.Risk
	decide []audit.Finding
	err    error
}

func calibrate(dir string) (row, error) {
	skills, err := findSkills(dir)
	if err != nil {
		return row{}, err
	}
	items := make([]item, len(skills))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				items[i] = auditOne(filepath.Join(dir, skills[i]))
				items[i].path = skills[i]
			}
		})
	}
	for i := range skills {
		next <- i
	}
	close(next)
	wg.Wait()
	r := row{Folder: dir, Skills: len(items), Rules: map[string]int{}, items: items}
	for _, it := range items {
		r.tally(it)
	}
	return r, nil
}

func (r *row) tally(it item) {
	if it.err != nil {
		r.Errors++
		return
	}
	switch it.risk {
	case audit.RiskHigh:
		r.High++
	case audit.RiskMedium:
		r.Medium++
		if !allNamed(it.decide) {
			r.Unnamed++
		}
	default:
		r.Low++
		return
	}
	seen := map[string]bool{}
	for _, f := range it.decide {
		if !seen[f.RuleID] {
			seen[f.RuleID] = true
			r.Rules[it.risk.String()+" "+f.RuleID]++
		}
	}
}

// namedReasons are the rules that make a benign skill medium for a reason
// a reviewer expects: it ships scripts, archives, active content or
// binaries, or it grants unrestricted tools.
var namedReasons = map[string]bool{"SG-TREE-006": true, "SG-TREE-007": true, "SG-TREE-010": true, "SG-TREE-011": true,
	"SG-TREE-012": true, "SG-MD-002": true, "SG-DIFF-002": true, "SG-DIFF-003": true}

func allNamed(fs []audit.Finding) bool {
	for _, f := range fs {
		if !namedReasons[f.RuleID] {
			return false
		}
	}
	return true
}

// findSkills lists the folders below dir that hold a SKILL.md, dot-folders
// included, .git excluded.
func findSkills(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "SKILL.md" {
			rel, _ := filepath.Rel(dir, filepath.Dir(p))
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

func auditOne(dir string) item {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return item{err: err}
	}
	defer root.Close()
	rep, err := audit.Scan(root.FS(), audit.Options{Skill: filepath.Base(dir)})
	if err != nil {
		return item{err: err}
	}
	it := item{risk: rep.Risk}
	for _, f := range rep.Findings {
		if f.Suppressed == "" && f.Severity.Risk() == rep.Risk {
			it.decide = append(it.decide, f)
		}
	}
	return it
}

func printTable(w io.Writer, rows []row, top int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "folder\tskills\thigh\tmedium\t(other reason)\tlow\terrors\thigh %\ttop rules")
	for _, r := range rows {
		pct := 0.0
		if r.Skills > 0 {
			pct = 100 * float64(r.High) / float64(r.Skills)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%s\n", r.Folder, r.Skills, r.High, r.Medium, r.Unnamed, r.Low, r.Errors, pct, topRules(r.Rules, top))
	}
	tw.Flush()
}

func topRules(m map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	var all []kv
	for k, v := range m {
		all = append(all, kv{k, v})
	}
	slices.SortFunc(all, func(a, b kv) int { return cmp.Or(cmp.Compare(b.v, a.v), cmp.Compare(a.k, b.k)) })
	var parts []string
	for _, risk := range []string{"high", "medium"} {
		shown := 0
		for _, e := range all {
			if strings.HasPrefix(e.k, risk+" ") && shown < n {
				parts = append(parts, fmt.Sprintf("%s:%d", e.k, e.v))
				shown++
			}
		}
	}
	return strings.Join(parts, ", ")
}

func printList(w io.Writer, rows []row, risk string) {
	for _, r := range rows {
		for _, it := range r.items {
			if it.err != nil {
				fmt.Fprintf(w, "%s/%s: error: %v\n", r.Folder, it.path, it.err)
				continue
			}
			if it.risk.String() != risk {
				continue
			}
			fmt.Fprintf(w, "%s/%s: %s\n", r.Folder, it.path, it.risk)
			for i, f := range it.decide {
				if i == 5 {
					fmt.Fprintf(w, "    ... %d more\n", len(it.decide)-5)
					break
				}
				fmt.Fprintf(w, "    %s %s:%d %s | %s\n", f.RuleID, f.File, f.Line, trim(f.Message, 90), trim(f.Snippet, 70))
			}
		}
	}
}

func trim(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
