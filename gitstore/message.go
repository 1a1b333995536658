package gitstore

import "strings"

// FormatMessage builds a commit message that git reads the same way:
// the subject on one line, a blank line, the body, a blank line and one
// "Key: value" line per trailer. Line breaks in the subject and in values
// become spaces, characters other than letters, digits and "-" in keys
// become "-", and a body line that git would take for a "---" patch
// divider is indented by one space so that the trailers stay visible.
func FormatMessage(subject, body string, trailers []Trailer) string {
	var b strings.Builder
	b.WriteString(oneLine(subject))
	b.WriteByte('\n')
	if body = cleanBody(body); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	if block := formatTrailers(trailers); block != "" {
		b.WriteString("\n" + block)
	}
	return b.String()
}

// oneLine joins the lines of s with single spaces.
func oneLine(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(slicesWithout(parts, ""), " ")
}

func slicesWithout(ss []string, drop string) []string {
	out := ss[:0]
	for _, s := range ss {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// cleanBody trims blank lines around the body and indents divider lines.
func cleanBody(body string) string {
	ls := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	for i, line := range ls {
		ls[i] = strings.TrimRight(line, " \t")
		if strings.HasPrefix(ls[i], "---") && (len(ls[i]) == 3 || isSpace(ls[i][3])) {
			ls[i] = " " + ls[i]
		}
	}
	return strings.Trim(strings.Join(ls, "\n"), "\n")
}

func formatTrailers(trailers []Trailer) string {
	var b strings.Builder
	for _, t := range trailers {
		key := trailerKey(t.Key)
		if key == "" {
			continue
		}
		b.WriteString(key + ": " + oneLine(t.Value) + "\n")
	}
	return b.String()
}

// trailerKey makes key a token git recognizes before a ":".
func trailerKey(key string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (isAlnum(byte(r)) || r == '-') {
			return r
		}
		return '-'
	}, strings.TrimSpace(key))
}
