package odb

import "fmt"

// MaxDeltaDepth bounds delta chains; a longer chain is taken for a
// corrupt pack.
const MaxDeltaDepth = 10000

// link is one delta of a chain.
type link struct {
	key   cacheKey
	e     entry
	delta []byte // inflated delta, when already at hand
}

// chainBase is what a chain of deltas ends on: an undeltified entry, or
// an object already resolved (cached or loose) when have is set.
type chainBase struct {
	key  cacheKey
	e    entry
	typ  Type
	data []byte
	have bool
}

// readPacked reads the object at off in p, the result of a lookup that
// may have failed with lookupErr.
func (db *DB) readPacked(id *[20]byte, p *pack, off, limit int64, lookupErr error) (Type, []byte, error) {
	if lookupErr != nil {
		return 0, nil, lookupErr
	}
	key := cacheKey{p, off}
	if typ, data, ok := db.cache.get(key); ok {
		if limit >= 0 && int64(len(data)) > limit {
			return 0, nil, tooLarge(id, typ, int64(len(data)), limit)
		}
		return typ, append(getBuf(len(data), typ == Blob)[:0], data...), nil
	}
	e, err := p.entryAt(off)
	if err != nil {
		return 0, nil, err
	}
	if !e.isDelta() {
		if limit >= 0 && e.size > limit {
			return 0, nil, tooLarge(id, Type(e.typ), e.size, limit)
		}
		data, err := p.inflateEntry(&e)
		return Type(e.typ), data, err
	}
	top := link{key: key, e: e}
	if err := db.checkDeltaLimit(id, &top, limit); err != nil {
		return 0, nil, err
	}
	return db.resolve(top)
}

// checkDeltaLimit refuses a delta whose result is above limit. When
// the delta itself fits the limit it is inflated whole and kept in top,
// otherwise only its header is.
func (db *DB) checkDeltaLimit(id *[20]byte, top *link, limit int64) error {
	p := top.key.p
	var hdr []byte
	var err error
	if limit < 0 || top.e.size <= limit {
		top.delta, err = p.inflateEntry(&top.e)
		hdr = top.delta
	} else {
		hdr, err = p.peekEntry(&top.e, 20)
	}
	if err != nil {
		return err
	}
	_, dst, _, err := deltaHeader(hdr)
	if err != nil {
		return corruptf(p.file, "delta at %d: %v", top.e.off, err)
	}
	if limit >= 0 && dst > limit {
		return tooLarge(id, 0, dst, limit)
	}
	return nil
}

// resolve applies the chain of deltas that starts at top.
func (db *DB) resolve(top link) (Type, []byte, error) {
	links, b, err := db.walk(top)
	if err != nil {
		return 0, nil, err
	}
	base := b.data
	if !b.have {
		base, err = b.key.p.inflateEntry(&b.e)
		if err != nil {
			return 0, nil, err
		}
		db.cache.put(b.key, b.typ, base)
	}
	for i := len(links) - 1; i >= 0; i-- {
		l := &links[i]
		d := l.delta
		if d == nil {
			if d, err = l.key.p.inflateEntry(&l.e); err != nil {
				return 0, nil, err
			}
		}
		out, err := applyDelta(base, d, b.typ == Blob)
		Release(d)
		if err != nil {
			return 0, nil, corruptf(l.key.p.file, "delta at %d: %v", l.e.off, err)
		}
		if i > 0 {
			db.cache.put(l.key, b.typ, out)
		}
		base = out
	}
	return b.typ, base, nil
}

// walk follows the chain of bases from the delta top, reading entry
// headers only, to the first cached, loose or undeltified base. It
// returns the deltas from top down.
func (db *DB) walk(top link) ([]link, chainBase, error) {
	links := []link{top}
	var seen map[cacheKey]bool
	for {
		cur := &links[len(links)-1]
		next, loose, err := db.baseOf(cur.key.p, &cur.e)
		if err != nil || loose.have {
			return links, loose, err
		}
		if seen == nil && cur.e.typ == refDelta {
			seen = make(map[cacheKey]bool, len(links))
			for _, l := range links {
				seen[l.key] = true
			}
		}
		if seen != nil {
			if seen[next] {
				return nil, chainBase{}, corruptf(next.p.file, "delta cycle through offset %d", next.off)
			}
			seen[next] = true
		}
		if typ, data, ok := db.cache.get(next); ok {
			return links, chainBase{key: next, typ: typ, data: data, have: true}, nil
		}
		e, err := next.p.entryAt(next.off)
		if err != nil {
			return nil, chainBase{}, err
		}
		if !e.isDelta() {
			return links, chainBase{key: next, e: e, typ: Type(e.typ)}, nil
		}
		if len(links) >= MaxDeltaDepth {
			return nil, chainBase{}, corruptf(next.p.file, "delta chain deeper than %d", MaxDeltaDepth)
		}
		links = append(links, link{key: next, e: e})
	}
}

// baseOf returns where the base of delta e in p is, or, for a base that
// is a loose object, the object itself.
func (db *DB) baseOf(p *pack, e *entry) (cacheKey, chainBase, error) {
	if e.typ == ofsDelta {
		return cacheKey{p, e.baseOff}, chainBase{}, nil
	}
	off, ok, err := p.lookup(&e.baseID)
	if err != nil || ok {
		return cacheKey{p, off}, chainBase{}, err
	}
	q, off, err := db.findPacked(&e.baseID)
	if err != nil || q != nil {
		return cacheKey{q, off}, chainBase{}, err
	}
	for _, d := range db.dirs {
		typ, _, data, err := readLoose(d.path, &e.baseID, -1, false)
		if !isNotExist(err) {
			return cacheKey{}, chainBase{typ: typ, data: data, have: true}, err
		}
	}
	return cacheKey{}, chainBase{}, fmt.Errorf("%s: delta at %d: base %w", p.file, e.off, notFound(&e.baseID))
}

// sizePacked returns the type and size of the object at off in p, the
// result of a lookup that may have failed with lookupErr.
func (db *DB) sizePacked(p *pack, off int64, lookupErr error) (Type, int64, error) {
	if lookupErr != nil {
		return 0, 0, lookupErr
	}
	key := cacheKey{p, off}
	if typ, data, ok := db.cache.get(key); ok {
		return typ, int64(len(data)), nil
	}
	e, err := p.entryAt(off)
	if err != nil || !e.isDelta() {
		return Type(e.typ), e.size, err
	}
	hdr, err := p.peekEntry(&e, 20)
	if err != nil {
		return 0, 0, err
	}
	_, dst, _, err := deltaHeader(hdr)
	if err != nil {
		return 0, 0, corruptf(p.file, "delta at %d: %v", off, err)
	}
	_, b, err := db.walk(link{key: key, e: e})
	return b.typ, dst, err
}
