// Package odb reads git objects from an objects folder: packs (through
// their idx files) and loose objects, following the folder's alternates.
//
// Readers share only immutable data (the memory maps of idx and pack
// files) and a delta-base cache with its own small lock, so goroutines
// read in parallel. A pack that appears while the process runs is found
// on the next miss; a pack deleted after it was opened keeps being read
// from its open map until Close.
//
// Every size and offset read from disk is checked before it is used:
// a corrupted file gives an error wrapping ErrCorrupt, never a panic; an
// allocation is bounded by the reader's limit and by what the rest of the
// pack can hold.
package odb
