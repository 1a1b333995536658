package audit

import (
	"bytes"
	"strconv"
)

var pdfTokens = []string{"/JavaScript", "/JS", "/Launch", "/OpenAction", "/AA", "/EmbeddedFile", "/SubmitForm", "/RichMedia", "/XFA"}

// pdfActive returns the first PDF action or script key found in data. An
// /OpenAction or /AA whose actions only jump to a page of the document (GoTo,
// or a bare destination) is navigation, not active content.
func pdfActive(data []byte) string {
	jumps := 0 // jumps read; each may search the file for an object, so they are bounded
	streams := &pdfStreams{data: data}
	for _, tok := range pdfTokens {
		for off := 0; ; {
			i := bytes.Index(data[off:], []byte(tok))
			if i < 0 {
				break
			}
			end := off + i + len(tok)
			if end < len(data) && isWordByte(data[end]) {
				off = end
				continue
			}
			if jumps++; jumps > maxPDFJumps || !pdfJumpOnly(data, streams, tok, end) {
				return tok
			}
			off = end
		}
	}
	return ""
}

// maxPDFJumps bounds the actions that only jump read in one PDF.
const maxPDFJumps = 16

var (
	pdfRefRe    = lazy(`^\s*(\d{1,10})\s+(\d{1,5})\s+R\b`)
	pdfActionRe = lazy(`/S\s*/([A-Za-z]+)`)
	pdfAnyRefRe = lazy(`\d+\s+\d+\s+R\b`)
)

// pdfJumpOnly reports an /OpenAction or /AA at off whose value, inline or in
// the object it refers to (in the file or in one of its object streams), holds
// only GoTo actions or a destination array. Anything it cannot read whole, such
// as an action chained with /Next or an action in another object, is not a jump.
func pdfJumpOnly(data []byte, streams *pdfStreams, tok string, off int) bool {
	if tok != "/OpenAction" && tok != "/AA" {
		return false
	}
	v := pdfValue(data, off)
	if m := pdfRefRe.FindSubmatch(v); m != nil {
		v = pdfReferred(data, streams, string(m[1]), string(m[2]))
		if v == nil {
			return false
		}
	}
	v = bytes.TrimSpace(v)
	switch {
	case tok == "/OpenAction" && bytes.HasPrefix(v, []byte("[")):
		return true
	case !bytes.HasPrefix(v, []byte("<<")) || bytes.Contains(v, []byte("/Next")):
		return false
	}
	actions := pdfActionRe.FindAllSubmatch(v, -1)
	for _, a := range actions {
		if string(a[1]) != "GoTo" {
			return false
		}
	}
	return len(actions) > 0 && !pdfAnyRefRe.Match(withoutArrays(v))
}

// pdfReferred returns the value of object num, generation gen: written in the
// file, or else packed in an object stream (whose objects are generation 0); nil
// when neither holds it.
func pdfReferred(data []byte, streams *pdfStreams, num, gen string) []byte {
	if obj := pdfObject(data, num+" "+gen+" obj"); obj >= 0 {
		return pdfValue(data, obj)
	}
	n, err := strconv.Atoi(num)
	if err != nil || gen != "0" {
		return nil
	}
	if body := streams.object(n); body != nil {
		return pdfValue(body, 0)
	}
	return nil
}

// pdfObject returns where the body of the object with the header "N G obj"
// starts, or -1.
func pdfObject(data []byte, header string) int {
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(header))
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || !isDigit(data[i-1]) {
			return i + len(header)
		}
		off = i + len(header)
	}
}

// pdfValue returns the PDF object that starts at off: an array or dictionary
// up to its end, or else the rest of the line; bounded, so it may be cut.
func pdfValue(data []byte, off int) []byte {
	rest := data[off:min(len(data), off+4096)]
	start := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n"))
	depth := 0
	for i := start; i < len(rest); i++ {
		switch {
		case rest[i] == '[' || rest[i] == '<' && i+1 < len(rest) && rest[i+1] == '<':
			depth++
			if rest[i] == '<' {
				i++
			}
		case rest[i] == ']' || rest[i] == '>' && i+1 < len(rest) && rest[i+1] == '>':
			if depth--; depth <= 0 {
				return rest[start : i+1+b2i(rest[i] == '>')]
			}
			if rest[i] == '>' {
				i++
			}
		case depth == 0 && (rest[i] == '\n' || rest[i] == '\r' || rest[i] == '/'):
			return rest[start:i]
		}
	}
	return rest[start:]
}

// withoutArrays returns v without the content of its arrays, where the
// references of a destination live.
func withoutArrays(v []byte) []byte {
	var out []byte
	depth := 0
	for _, c := range v {
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0:
			out = append(out, c)
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
