package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// auditOptions are the flags and arguments of `skillgit audit`.
type auditOptions struct {
	app                       *app
	paths                     []string
	rev, base, format, failOn string
	noCache                   bool
	// writeAllow, with reason, adds the findings to the allow list instead of reporting them.
	writeAllow bool
	reason     string
}

func newAuditCmd(a *app) *cobra.Command {
	f := &auditOptions{app: a}
	c := &cobra.Command{
		Use:   "audit [PATH...]",
		Short: "Run the security audit on skills",
		Long: `Run the security audit on skills and report every finding with its risk.

A PATH is a skill folder, a SKILL.md, or a folder of skills (searched recursively, a
dot-folder only when named; a PATH with no SKILL.md under it is an error); every
folder with a SKILL.md is audited, even one whose frontmatter does not parse.
Outside git, PATH is required.
Without PATH, the repository's skills folder is audited (the publish branch of a
bare repository). --rev REV audits every skill of a commit; --rev A..B (or A...B)
audits the skills that the commits of A..B change, as git log A..B selects them:
each against its version at the merge base of A and B, so a branch is not blamed
for what A changed after it forked. --base REF
compares the folders of PATH with their versions in REF, so that findings they
already had are marked as not new.

The accepted findings (audit.allow), trusted installers (audit.installers) and the
repository's own rules (.skillgit/audit-rules.yaml) come
from the policy of the version compared with: A for --rev A..B, REF for --base,
else the publish branch; never from the change itself. Results are cached by tree
id under the git directory; the cache is safe to delete.

--write-allow -m REASON adds an entry for every current finding that is neither
critical nor accepted yet to the allow list that audit.allow names (default
.skillgit/audit-allow.yaml) in the working tree, scoped to its skill, file, rule
and fingerprint, keeping the entries already there. It takes effect once the file
is committed on the publish branch. Critical findings are never written.

This command always runs: audit.skip_security_audit and
SKILLGIT_SKIP_SECURITY_AUDIT only switch off the automatic audits of the lifecycle.

Exit status 0 when the risk is below --fail-on (default: audit.fail_on, else high),
3 when it is at or above it, 1 on error. See 'skillgit help exit-codes'.`,
		RunE: func(c *cobra.Command, args []string) error {
			f.paths = args
			return runAudit(f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.rev, "rev", "", "audit the skills of commit `REV`, or those the commits of A..B change")
	fl.StringVar(&f.base, "base", "", "compare each PATH with its version in `REF`")
	fl.StringVar(&f.format, "format", "text", "output `FORMAT`: text, json, sarif or markdown")
	fl.StringVar(&f.failOn, "fail-on", "", "exit 3 at or above `RISK`: low, medium or high (critical is taken as high)")
	fl.BoolVar(&f.noCache, "no-cache", false, "neither read nor store cached results")
	fl.BoolVar(&f.writeAllow, "write-allow", false, "add the non-critical findings to the allow list (needs -m REASON)")
	fl.StringVarP(&f.reason, "message", "m", "", "the `REASON` recorded with each entry --write-allow writes")
	a.addJSON(c)
	return c
}

func runAudit(f *auditOptions) error {
	a, paths := f.app, f.paths
	format, err := f.outputFormat()
	if err != nil {
		return err
	}
	if f.writeAllow && strings.TrimSpace(f.reason) == "" {
		return usageError{fmt.Errorf("--write-allow needs -m REASON: every entry records why its finding is accepted")}
	}
	if f.failOn != "" {
		if _, err := audit.ParseRisk(f.failOn); err != nil {
			return usageError{fmt.Errorf("--fail-on: %w", err)}
		}
	}
	if len(paths) == 0 && f.rev == "" {
		if err := a.needPathOutsideGit("audit"); err != nil {
			return err
		}
	}
	req := auditrun.Request{
		Dir: a.repo, Paths: paths, Rev: f.rev, Base: f.base, FailOn: f.failOn, NoCache: f.noCache,
	}
	if !f.writeAllow {
		req.Print = &auditrun.Print{Out: a.Out, Format: format, Color: format == audit.FormatText && colorful(a.Out), Version: a.version}
	}
	run, err := lifecycle.Audit(req)
	if err != nil {
		return err
	}
	if f.writeAllow {
		return f.addToAllowList(run)
	}
	if run.Verdict == audit.VerdictBlocked {
		return quietExit{code: ExitRefused}
	}
	return nil
}

// addToAllowList adds the run's findings to the allow list and says what it wrote.
func (f *auditOptions) addToAllowList(run *auditrun.Result) error {
	a := f.app
	res, err := lifecycle.WriteAllowList(a.repo, run.Reports, f.reason)
	if err != nil {
		return err
	}
	return a.printResult(res, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s: added %s, kept %d", res.File, countOf(res.Added, "entry", "entries"), res.Kept)
		if err == nil && res.Skipped > 0 {
			_, err = fmt.Fprintf(w, "; %s not written (critical findings are never accepted)", countOf(res.Skipped, "critical finding", "critical findings"))
		}
		if err == nil {
			_, err = fmt.Fprintf(w, "\nCommit it on the publish branch for it to take effect.\n")
		}
		return err
	})
}

// outputFormat returns the output format; --json is --format json.
func (f *auditOptions) outputFormat() (audit.Format, error) {
	a := f.app
	format, err := audit.ParseFormat(f.format)
	if err != nil {
		return 0, usageError{fmt.Errorf("--format: %w", err)}
	}
	if a.json {
		if f.format != "text" && format != audit.FormatJSON {
			return 0, usageError{fmt.Errorf("--json and --format %s ask for two formats; pass one", f.format)}
		}
		return audit.FormatJSON, nil
	}
	return format, nil
}

// colorful reports whether w is a terminal that should get colors: not when NO_COLOR is set.
func colorful(w io.Writer) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// countOf says "1 entry" or "3 entries".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
