package audit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"unsafe"
)

// A cache entry is binary: a cache hit is mostly its decoding, and this
// decodes several times faster than JSON. Layout:
//
//	magic "SGAC", format byte
//	uvarint ruleset, string tree, string base, string policy
//	byte risk, uvarint files, uvarint bytes, uvarint count
//	count × finding: string rule, byte severity, string file,
//	  uvarint line, uvarint column, string message, string snippet,
//	  string fingerprint, byte new, string suppressed, string decoded,
//	  uvarint match count, uvarint n, n × (uvarint line, uvarint column),
//	  string suppressed by, string suppressed source
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// where a string is a uvarint length and that many bytes. The entry
// repeats its key, so that an entry mixed up under another name is not
// taken for a hit, and the checksum turns any damage into a miss.
const cacheMagic = "SGAC"

// minFindingBytes is the least a finding takes, to bound a count read
// from a damaged entry before anything is allocated for it.
const minFindingBytes = 15

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var errCorrupt = errors.New("corrupt cache entry")

func encodeCacheEntry(k cacheKey, r *Report) []byte {
	b := append([]byte(cacheMagic), cacheFormat)
	b = binary.AppendUvarint(b, uint64(k.ruleset))
	b = appendString(appendString(appendString(b, k.tree), k.base), k.policy)
	b = appendReport(b, r)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// appendReport appends the fields of r: risk, files, bytes and findings.
func appendReport(b []byte, r *Report) []byte {
	b = append(b, byte(r.Risk))
	b = binary.AppendUvarint(b, uint64(max(r.Files, 0)))
	b = binary.AppendUvarint(b, uint64(max(r.Bytes, 0)))
	b = binary.AppendUvarint(b, uint64(len(r.Findings)))
	for _, f := range r.Findings {
		b = appendFinding(b, f)
	}
	return b
}

func appendFinding(b []byte, f Finding) []byte {
	b = append(appendString(b, f.RuleID), byte(f.Severity))
	b = appendString(b, f.File)
	b = binary.AppendUvarint(b, uint64(max(f.Line, 0)))
	b = binary.AppendUvarint(b, uint64(max(f.Column, 0)))
	b = appendString(appendString(appendString(b, f.Message), f.Snippet), f.Fingerprint)
	b = append(b, boolByte(f.New))
	b = appendString(appendString(b, f.Suppressed), f.Decoded)
	b = binary.AppendUvarint(b, uint64(max(f.Count, 0)))
	b = binary.AppendUvarint(b, uint64(len(f.Locations)))
	for _, l := range f.Locations {
		b = binary.AppendUvarint(b, uint64(max(l.Line, 0)))
		b = binary.AppendUvarint(b, uint64(max(l.Column, 0)))
	}
	return appendString(appendString(b, f.SuppressedBy), f.SuppressedSource)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// decodeCacheEntry returns the report in data if data is a whole,
// undamaged entry for key k; anything else is errCorrupt.
func decodeCacheEntry(data []byte, k cacheKey) (*Report, error) {
	body, err := checkedBody(data, cacheMagic, "an entry")
	if err != nil {
		return nil, err
	}
	r := &Report{}
	if err := decodeReport(body, k, r); err != nil {
		return nil, err
	}
	return r, nil
}

// checkedBody returns what data holds between its magic and its checksum, if it starts with
// magic and its checksum holds; anything else is errCorrupt, naming what was expected.
func checkedBody(data []byte, magic, what string) ([]byte, error) {
	if len(data) < len(magic)+5 || !hasMagic(data, magic) {
		return nil, fmt.Errorf("%w: not %s", errCorrupt, what)
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return body[len(magic):], nil
}

// decodeReport decodes into r the fields of an entry after its magic, body, if they are
// stored under key k.
func decodeReport(body []byte, k cacheKey, r *Report) error {
	d := &entryDecoder{b: body}
	if d.byte() != cacheFormat || d.int() != k.ruleset || d.string() != k.tree || d.string() != k.base || d.string() != k.policy {
		return fmt.Errorf("%w: stored under another key", errCorrupt)
	}
	return d.report(r)
}

// report reads the fields appendReport wrote into r, which must be all that is left.
func (d *entryDecoder) report(r *Report) error {
	*r = Report{Risk: Risk(d.byte()), Files: d.int()}
	r.Bytes = int64(d.int())
	n := d.int()
	if n > len(d.b)/minFindingBytes {
		return fmt.Errorf("%w: %d findings cannot fit", errCorrupt, n)
	}
	r.Findings = make([]Finding, n)
	for i := range r.Findings {
		r.Findings[i] = d.finding()
	}
	if d.err || len(d.b) != 0 || !validReport(r) {
		return fmt.Errorf("%w: malformed report", errCorrupt)
	}
	return nil
}

func validReport(r *Report) bool {
	for _, f := range r.Findings {
		if f.Severity < Info || f.Severity > Critical || f.RuleID == "" {
			return false
		}
	}
	return r.Risk >= RiskLow && r.Risk <= RiskHigh && riskOf(r.Findings) == r.Risk
}

// entryDecoder reads an entry's fields; the first short read sets err and
// every later read returns zero values.
type entryDecoder struct {
	b   []byte
	err bool
	// shared makes strings share b's bytes rather than copy them.
	shared bool
}

func (d *entryDecoder) byte() byte {
	if len(d.b) == 0 {
		d.err = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *entryDecoder) int() int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > 1<<40 {
		d.err = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *entryDecoder) string() string {
	n := d.int()
	if n > len(d.b) {
		d.err = true
		d.b = nil
		return ""
	}
	var s string
	switch {
	case n == 0:
	case d.shared:
		s = unsafe.String(&d.b[0], n)
	default:
		s = string(d.b[:n])
	}
	d.b = d.b[n:]
	return s
}

func (d *entryDecoder) finding() Finding {
	f := Finding{RuleID: d.string(), Severity: Severity(d.byte()), File: d.string(), Line: d.int(), Column: d.int()}
	f.Message, f.Snippet, f.Fingerprint = d.string(), d.string(), d.string()
	switch d.byte() {
	case 0:
	case 1:
		f.New = true
	default:
		d.err = true
	}
	f.Suppressed, f.Decoded = d.string(), d.string()
	f.Count = d.int()
	if n := d.int(); n > MaxLocations {
		d.err = true
	} else if n > 0 {
		f.Locations = make([]Location, n)
		for i := range f.Locations {
			f.Locations[i] = Location{Line: d.int(), Column: d.int()}
		}
	}
	f.SuppressedBy, f.SuppressedSource = d.string(), d.string()
	return f
}
