// Package audit scans an Agent Skill for content that would let the skill
// harm the people and machines of the agents that load it.
//
// A skill is read as an [fs.FS] whose root is the skill folder, so the same
// scan runs over a working tree, a git tree or an embedded pack. [Scan]
// applies every rule of [Rules] to every file, combines related findings,
// compares them with a base version when one is given, applies the
// repository's allow list and reports the resulting [Risk].
//
// Text rules run behind a keyword prefilter: one case-folded multi-keyword
// pass over a file decides which rules can match at all, and each rule's
// regular expression then runs only on the lines around its keyword hits,
// or, for rules whose matches begin with a keyword, only where a keyword
// begins. Text hidden by invisible characters, look-alike letters, tag
// characters, variation selectors or base64, hex and escape encodings is
// decoded and read again, to a bounded depth, and so are strings a skill
// rebuilds from pieces (joined lists, concatenation, reversal, slices,
// character codes, shell variables) before it prints or runs them.
//
// Rules about language, such as prompt injection, are one level less
// severe when their match is quoted as an example in Markdown; rules about
// commands are not, since commands are written in code spans anyway. No
// rule is switched off by words in the skill.
//
// Reading is bounded: a file over 5 MiB is not read, a skill is read up
// to 1,000 files; what is left out is itself a high finding, since
// padding must never lower the risk. Images, fonts, audio and other inert
// data, recognised by their bytes, are data whatever their size.
package audit
