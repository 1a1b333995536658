package audit

import (
	"encoding/base64"
	"io"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// cmdSubst writes what a command substitution prints when its command only
// prints its arguments; otherwise it writes the command, $(...), whose
// output is unknown.
func (r *shellReader) cmdSubst(w io.Writer, cs *syntax.CmdSubst) error {
	if r.depth >= maxShellDepth {
		_, err := io.WriteString(w, r.source(cs))
		return err
	}
	defer r.nest()()
	if len(cs.Stmts) == 1 && onlyPrints(cs.Stmts[0]) {
		if out, ok := r.prints(cs.Stmts[0]); ok {
			r.changes++
			_, err := io.WriteString(w, out)
			return err
		}
	}
	r.opaque = true
	_, err := io.WriteString(w, "$("+r.list(cs.Stmts)+")")
	return err
}

// procSubst writes a process substitution with its commands written out;
// what it reads or writes is unknown.
func (r *shellReader) procSubst(ps *syntax.ProcSubst) (string, error) {
	if r.depth >= maxShellDepth {
		return r.source(ps), nil
	}
	defer r.nest()()
	return ps.Op.String() + r.list(ps.Stmts) + ")", nil
}

// prints returns the output of a command that only prints: printf, echo,
// `which NAME`, and those piped to a base64 decode.
func (r *shellReader) prints(st *syntax.Stmt) (string, bool) {
	if len(st.Redirs) > 0 {
		return "", false
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe || !isBase64Decode(c.Y) {
			return "", false
		}
		in, ok := r.prints(c.X)
		if !ok {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(in))
		return string(b), err == nil && printable(b)
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return "", false
		}
		var args []string
		for f, err := range expand.FieldsSeq(r.cfg, c.Args[1:]...) {
			if err != nil || len(args) > 64 {
				return "", false
			}
			args = append(args, f)
		}
		return printed(r.cfg, c.Args[0].Lit(), args)
	}
	return "", false
}

// printed is what the printing command name writes for args.
func printed(cfg *expand.Config, name string, args []string) (string, bool) {
	switch name {
	case "printf":
		if len(args) == 0 || len(args) > 64 {
			return "", false
		}
		return format(cfg, args[0], args[1:])
	case "echo":
		if len(args) > 0 && (args[0] == "-n" || args[0] == "-e") {
			args = args[1:]
		}
		return strings.Join(args, " "), true
	case "which":
		return strings.Join(args, " "), len(args) == 1
	case "command", "type":
		if len(args) != 2 || args[0] != "-v" && args[0] != "-p" {
			return "", false
		}
		return args[1], true
	}
	return "", false
}

// format is printf: the format is used again while arguments remain.
func format(cfg *expand.Config, f string, args []string) (string, bool) {
	var b strings.Builder
	for {
		out, n, err := expand.Format(cfg, f, args)
		if err != nil {
			return "", false
		}
		b.WriteString(out)
		if b.Len() > maxShellValue {
			return "", false
		}
		if n <= 0 || n >= len(args) {
			return b.String(), true
		}
		args = args[n:]
	}
}

// onlyPrints reports whether st is a command prints can write out, before
// any of its words is expanded.
func onlyPrints(st *syntax.Stmt) bool {
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe && isBase64Decode(c.Y) && onlyPrints(c.X)
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		switch c.Args[0].Lit() {
		case "printf", "echo", "which", "command", "type":
			return true
		}
	}
	return false
}

// isBase64Decode reports whether st is `base64 -d` reading its input.
func isBase64Decode(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 || c.Args[0].Lit() != "base64" {
		return false
	}
	switch c.Args[1].Lit() {
	case "-d", "--decode", "-D":
		return true
	}
	return false
}
