package audit

func init() { register(remoteHrefScriptRule) }

// remoteHrefScriptRule finds a script element that loads its code from
// another host through href or xlink:href, as SVG allows: the file's active
// content then runs whatever that host serves. Script loaded through src
// is judged with the file's active content (SG-TREE-012).
var remoteHrefScriptRule = &Rule{
	ID: "SG-EXE-060", Severity: High, Category: "execution", tags: tagExecution,
	Title:    "script loaded from another host by href",
	Help:     "An SVG or HTML script element whose href or xlink:href names a script on another host runs whatever that host serves whenever the file is opened, and the audit never sees it. Ship the script in the skill or remove it.",
	Keywords: []string{"<script"},
	kinds:    kindMarkup,
	anchored: true, reach: 1100,
	pattern: `(?i)<script\b[^>]{0,1000}?\s(?:xlink:)?href\s*=\s*["']?(?:https?:)?//[^"'\s>]+`,
	fire:    []string{"-- assets/a.svg --\n" + `<svg xmlns="http://www.w3.org/2000/svg"><script href="https://evil.example/x.js"/></svg>`, "-- assets/b.svg --\n" + `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><script type="text/ecmascript" xlink:href="//cdn.evil.example/a.js"></script></svg>`},
	pass:    []string{"-- assets/a.svg --\n" + `<svg xmlns="http://www.w3.org/2000/svg"><script href="js/app.js"/></svg>`, "-- assets/b.svg --\n" + `<svg><a xlink:href="https://example.com/">site</a><use href="#icon"/></svg>`},
}
