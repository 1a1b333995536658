package audit

import (
	"bytes"
	"strings"
)

var (
	scriptObfuscRe = lazy(`(?i)\b(?:eval|new\s+function|settimeout|setinterval|document\.write)\s*\(\s*(?:atob|unescape|decodeuricomponent|string\.fromcharcode|window\.atob)\s*\(|(?:\\x[0-9a-f]{2}){40,}`)
	browserDataRe  = lazy(`(?i)document\.cookie|localstorage|sessionstorage|indexeddb`)
	browserSendRe  = lazy(`(?i)(?:\bfetch\s*\(|sendbeacon\s*\(|\.open\s*\(|new\s+image\b|\.src\s*=|new\s+websocket\s*\()[^\n]{0,200}?["'\x60](?:https?:|wss?:)?//`)
)

// sendsBrowserData reports script that sends browser data to an absolute
// address within a few lines of reading it.
func sendsBrowserData(data []byte) bool {
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		if !browserDataRe.Match(l) {
			continue
		}
		w := bytes.Join(lines[max(0, i-2):min(len(lines), i+3)], []byte("\n"))
		if browserSendRe.Match(w) {
			return true
		}
	}
	return false
}

var (
	scriptTagRe = lazy(`(?i)<script\b[^>]{0,1000}>`)
	scriptSrcRe = lazy(`(?i)\b(?:src|href)\s*=\s*["']?((?:https?:)?//[^"'\s>]+)`)
	importURLRe = lazy(`(?i)\bimport\s*(?:\(\s*|[\w{}\s,*]+\s+from\s+)["']((?:https?:)?//[^"'\s]+)`)
)

// libraryCDNs serve versioned copies of published libraries.
var libraryCDNs = set("cdnjs.cloudflare.com", "cdn.jsdelivr.net", "unpkg.com", "ajax.googleapis.com", "code.jquery.com",
	"cdn.tailwindcss.com", "esm.sh", "cdn.skypack.dev", "cdn.plot.ly", "d3js.org", "stackpath.bootstrapcdn.com",
	"maxcdn.bootstrapcdn.com", "cdn.sheetjs.com", "cdn.datatables.net", "fonts.googleapis.com", "ga.jspm.io", "cdn.mathjax.org")

// remoteScript returns the first address an HTML or SVG file loads script from
// (by src, or by href or xlink:href as SVG allows) that is not a library CDN and
// carries no integrity hash.
func remoteScript(data []byte) string {
	for _, tag := range scriptTagRe.FindAll(data, 200) {
		m := scriptSrcRe.FindSubmatch(tag)
		if m == nil || bytes.Contains(bytes.ToLower(tag), []byte("integrity=")) || libraryHost(string(m[1])) {
			continue
		}
		return string(m[1])
	}
	for _, m := range importURLRe.FindAllSubmatch(data, 200) {
		if !libraryHost(string(m[1])) {
			return string(m[1])
		}
	}
	return ""
}

func libraryHost(u string) bool {
	_, rest, _ := strings.Cut(u, "//")
	host, _, _ := strings.Cut(rest, "/")
	return libraryCDNs[strings.ToLower(host)]
}
