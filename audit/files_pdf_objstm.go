package audit

import (
	"bytes"
	"compress/zlib"
	"io"
	"strconv"
)

// Bounds on the object streams read to resolve an action: a PDF may pack its objects,
// actions among them, into compressed /ObjStm streams, and a hostile one may hold many or
// inflate to far more than it weighs.
const (
	maxObjStms       = 64      // object streams read in one PDF
	maxObjStmBytes   = 1 << 20 // bytes one stream may inflate to
	maxObjStmTotal   = 4 << 20 // bytes all streams together may inflate to
	maxObjStmObjects = 10000   // objects one stream may declare
)

// pdfStreams finds objects inside the object streams of a PDF, reading the streams on first
// use only.
type pdfStreams struct {
	data   []byte
	loaded bool
	objs   map[int][]byte // object number -> its bytes to the end of its stream; nil when two streams hold it
}

// object returns the bytes at which object num starts inside an object stream, or nil when
// no stream readable within the bounds holds it or more than one does: which of two counts
// is for the cross-reference table to say, and this reader does not follow it.
func (s *pdfStreams) object(num int) []byte {
	if !s.loaded {
		s.loaded = true
		s.load()
	}
	return s.objs[num]
}

func (s *pdfStreams) load() {
	s.objs = map[int][]byte{}
	total, seen := 0, 0
	for off := 0; seen < maxObjStms && total < maxObjStmTotal; seen++ {
		i := bytes.Index(s.data[off:], []byte("/ObjStm"))
		if i < 0 {
			return
		}
		i += off
		off = i + len("/ObjStm")
		dict, body := pdfStreamAt(s.data, i)
		if dict == nil {
			continue
		}
		dec, ok := inflateBounded(body, min(maxObjStmBytes, maxObjStmTotal-total))
		if !ok {
			continue
		}
		total += len(dec)
		s.add(dict, dec)
	}
}

// add records the objects that the object stream with dictionary dict and content dec holds.
func (s *pdfStreams) add(dict, dec []byte) {
	n, first := pdfInt(dict, "/N"), pdfInt(dict, "/First")
	if n <= 0 || n > maxObjStmObjects || first <= 0 || first > len(dec) {
		return
	}
	head := bytes.Fields(dec[:first])
	if len(head) < 2*n {
		return
	}
	for k := range n {
		num, err1 := strconv.Atoi(string(head[2*k]))
		at, err2 := strconv.Atoi(string(head[2*k+1]))
		if err1 != nil || err2 != nil || at < 0 || first+at >= len(dec) {
			continue
		}
		if _, dup := s.objs[num]; dup {
			s.objs[num] = nil
			continue
		}
		s.objs[num] = dec[first+at:]
	}
}

// pdfStreamAt returns the dictionary around the /ObjStm key at i and the raw bytes of the
// stream after it, or nil when that is not a FlateDecode stream with no other filter or
// parameters, which this reader does not decode.
func pdfStreamAt(data []byte, i int) (dict, body []byte) {
	open := bytes.LastIndex(data[max(0, i-1024):i], []byte("<<"))
	if open < 0 {
		return nil, nil
	}
	open += max(0, i-1024)
	dict = pdfValue(data, open)
	if !bytes.HasSuffix(dict, []byte(">>")) || !bytes.Contains(dict, []byte("/FlateDecode")) ||
		bytes.Contains(dict, []byte("/DecodeParms")) || bytes.Count(dict, []byte("/Filter")) != 1 || bytes.Contains(dict, []byte("[")) {
		return nil, nil
	}
	rest := data[open+len(dict):]
	j := bytes.Index(rest[:min(len(rest), 64)], []byte("stream"))
	if j < 0 {
		return nil, nil
	}
	rest = rest[j+len("stream"):]
	rest = bytes.TrimPrefix(rest, []byte("\r"))
	rest = bytes.TrimPrefix(rest, []byte("\n"))
	if n := pdfInt(dict, "/Length"); n > 0 && n <= len(rest) {
		return dict, rest[:n]
	}
	// Deflate never makes a stream much larger than its content, so the end of one whose
	// content is within the bounds is near.
	if e := bytes.Index(rest[:min(len(rest), maxObjStmBytes+maxObjStmBytes/8)], []byte("endstream")); e >= 0 {
		return dict, rest[:e]
	}
	return nil, nil
}

// inflateBounded inflates zlib data to at most limit bytes; false when it is not zlib data
// or inflates to more.
func inflateBounded(raw []byte, limit int) ([]byte, bool) {
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, false
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
	if len(out) > limit || err != nil && err != io.ErrUnexpectedEOF {
		return nil, false
	}
	return out, true
}

// pdfInt returns the direct integer value of key in dict, or -1 (absent, or a reference).
func pdfInt(dict []byte, key string) int {
	i := bytes.Index(dict, []byte(key))
	for i >= 0 && i+len(key) < len(dict) && isWordByte(dict[i+len(key)]) {
		j := bytes.Index(dict[i+len(key):], []byte(key))
		if j < 0 {
			return -1
		}
		i += len(key) + j
	}
	if i < 0 {
		return -1
	}
	m := pdfIntRe.FindSubmatch(dict[i+len(key):])
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return -1
	}
	return n
}

// pdfIntRe is an integer that is not the start of a reference such as 12 0 R.
var pdfIntRe = lazy(`^\s*(\d{1,9})\b(?:\s*$|\s*[/>\]]|\s+\d+\s+[^R\s\d])`)
