// Package codeflow reads the Python and JavaScript a skill ships as a
// program, not as lines of text, and reports where data goes: a secret,
// the whole environment or a credential file that reaches the network,
// content fetched from the network that runs as code or is saved and run,
// and commands a program builds from pieces before it runs them.
//
// The code is parsed with tree-sitter's official grammars and then
// interpreted abstractly: every expression evaluates to a value that knows
// where its data came from (its taint), the text it holds when that is
// known, and what it is (a module, an HTTP client, an open file). Values
// flow through assignments, containers, string building, formatting and
// encoding, and into the functions a skill defines, in any of its files.
// Reading is bounded in nodes, call depth and text, so hostile code cannot
// make it slow.
//
// The parsers need cgo. Without it, [Available] reports false, [Analyze]
// returns [ErrUnavailable], and the audit keeps to its text rules.
package codeflow
