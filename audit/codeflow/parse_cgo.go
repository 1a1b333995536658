//go:build cgo

package codeflow

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

// The parts of tree-sitter's C API this package calls; the library itself is
// built and linked by github.com/tree-sitter/go-tree-sitter.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } TSNode;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef enum { TSInputEncodingUTF8, TSInputEncodingUTF16LE, TSInputEncodingUTF16BE, TSInputEncodingCustom } TSInputEncoding;
typedef uint32_t (*DecodeFunction)(const uint8_t *, uint32_t, int32_t *);
typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read);
	TSInputEncoding encoding;
	DecodeFunction decode;
} TSInput;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } TSParseState;
typedef struct { void *payload; bool (*progress_callback)(TSParseState *state); } TSParseOptions;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;

extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern bool ts_parser_set_language(TSParser *, const TSLanguage *);
extern TSTree *ts_parser_parse_with_options(TSParser *, const TSTree *, TSInput, TSParseOptions);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern uint16_t ts_node_symbol(TSNode);
extern bool ts_node_is_named(TSNode);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern uint32_t ts_language_symbol_count(const TSLanguage *);
extern uint32_t ts_language_field_count(const TSLanguage *);
extern const char *ts_language_symbol_name(const TSLanguage *, uint16_t);
extern const char *ts_language_field_name_for_id(const TSLanguage *, uint16_t);

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

// cf_use_libc makes the library allocate with the C library's functions: the Go
// binding's default calls back into Go for every allocation, which costs more than the parse.
static void cf_use_libc(void) { ts_set_allocator(malloc, calloc, realloc, free); }

typedef struct { uint16_t sym, field; uint32_t start, end, depth; } cf_node;

typedef struct {
	const char *src;
	uint32_t len;
	uint64_t start_ns, max_ns;
	bool stopped;
} cf_input;

static const char *cf_read(void *payload, uint32_t byte, TSPoint pos, uint32_t *n) {
	cf_input *in = payload;
	if (byte >= in->len) {
		*n = 0;
		return "";
	}
	*n = in->len - byte;
	return in->src + byte;
}

// cf_cpu_ns is the processor time this thread has used: the budget is counted in it,
// not in wall time, so that a machine busy with other work does not cut a parse short.
static uint64_t cf_cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// cf_progress stops a parse that has used more than its budget.
static bool cf_progress(TSParseState *st) {
	cf_input *in = st->payload;
	if (cf_cpu_ns() - in->start_ns > in->max_ns) {
		in->stopped = true;
	}
	return in->stopped;
}

// cf_parse parses src and writes its named nodes in preorder, each with its
// depth, into out; it returns how many, -1 when there are more than cap, -2
// when the parser fails, or -3 when the parse took more than max_ns of
// processor time. Nodes deeper than max_depth are not visited.
static int cf_parse(const TSLanguage *lang, const char *src, uint32_t len, cf_node *out, int cap, uint32_t max_depth, uint64_t max_ns) {
	TSParser *p = ts_parser_new();
	if (!ts_parser_set_language(p, lang)) {
		ts_parser_delete(p);
		return -2;
	}
	cf_input in = {src, len, cf_cpu_ns(), max_ns, false};
	TSInput input = {&in, cf_read, TSInputEncodingUTF8, NULL};
	TSParseOptions opts = {&in, cf_progress};
	TSTree *t = ts_parser_parse_with_options(p, NULL, input, opts);
	ts_parser_delete(p);
	if (!t) {
		return in.stopped ? -3 : -2;
	}
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	int n = 0;
	uint32_t depth = 0;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		bool named = ts_node_is_named(node);
		if (named) {
			if (n >= cap) {
				n = -1;
				break;
			}
			out[n].sym = ts_node_symbol(node);
			out[n].field = ts_tree_cursor_current_field_id(&c);
			out[n].start = ts_node_start_byte(node);
			out[n].end = ts_node_end_byte(node);
			out[n].depth = depth;
			n++;
		}
		if (named && depth < max_depth && ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		bool more = true;
		while (more && !ts_tree_cursor_goto_next_sibling(&c)) {
			more = ts_tree_cursor_goto_parent(&c);
			depth--;
		}
		if (!more) {
			break;
		}
	}
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	return n;
}
*/
import "C"

import (
	"unsafe"

	_ "github.com/tree-sitter/go-tree-sitter" // builds and links tree-sitter's C library
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

const available = true

// grammar is a language with its node kinds and field names by number.
type grammar struct {
	lang   *C.TSLanguage
	kinds  []string
	fields []string
}

func init() { C.cf_use_libc() }

var (
	pyGrammar = newGrammar(python.Language())
	jsGrammar = newGrammar(javascript.Language())
)

func newGrammar(p unsafe.Pointer) *grammar {
	g := &grammar{lang: (*C.TSLanguage)(p)}
	for i := range uint32(C.ts_language_symbol_count(g.lang)) {
		g.kinds = append(g.kinds, C.GoString(C.ts_language_symbol_name(g.lang, C.uint16_t(i))))
	}
	g.fields = append(g.fields, "")
	for i := uint32(1); i <= uint32(C.ts_language_field_count(g.lang)); i++ {
		g.fields = append(g.fields, C.GoString(C.ts_language_field_name_for_id(g.lang, C.uint16_t(i))))
	}
	return g
}

// parse reads src in lang and returns its named nodes as a tree, at most
// maxNodes of them and maxDepth deep. Syntax errors are kept as the
// grammar recovers from them: what parses around them is still read.
func parse(lang Lang, src []byte) (*node, error) {
	g := pyGrammar
	if lang == JavaScript {
		g = jsGrammar
	}
	if len(src) == 0 {
		return &node{kind: "module"}, nil
	}
	size := min(len(src)/2+64, maxNodes)
	for {
		out := make([]C.cf_node, size)
		n := int(C.cf_parse(g.lang, (*C.char)(unsafe.Pointer(&src[0])), C.uint32_t(len(src)), &out[0], C.int(size), maxDepth, C.uint64_t(parseBudget(len(src)))))
		switch {
		case n == -3:
			return nil, errTooCostly
		case n == -2:
			return nil, ErrUnavailable
		case n == -1 && size < maxNodes:
			size = min(size*4, maxNodes)
			continue
		case n == -1:
			n = size
		}
		return g.tree(out[:n]), nil
	}
}

// tree builds the nodes written in preorder with their depths into a tree.
func (g *grammar) tree(flat []C.cf_node) *node {
	all := make([]node, len(flat))
	stack := make([]*node, 0, 64)
	for i := range flat {
		f := &flat[i]
		n := &all[i]
		n.start, n.end = int(f.start), int(f.end)
		if int(f.sym) < len(g.kinds) {
			n.kind = g.kinds[f.sym]
		}
		if int(f.field) < len(g.fields) {
			n.field = g.fields[f.field]
		}
		d := int(f.depth)
		if d > len(stack) {
			d = len(stack)
		}
		stack = stack[:d]
		if d > 0 {
			p := stack[d-1]
			p.kids = append(p.kids, n)
		}
		stack = append(stack, n)
	}
	if len(all) == 0 {
		return &node{kind: "module"}
	}
	return &all[0]
}

// parseBudget is the processor time, in nanoseconds, a source of n bytes may take to parse.
func parseBudget(n int) uint64 { return uint64(budgetBase + budgetPerByte*n) }
