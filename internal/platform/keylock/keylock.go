// Package keylock serialises work on one key (an account id) without a lock per key: keys share a fixed set of
// mutexes by hash, so the memory is constant and two keys only rarely wait for each other.
package keylock

import (
	"hash/fnv"
	"sync"
)

// Striped is 64 mutexes; the zero value is ready.
type Striped [64]sync.Mutex

// Lock takes key's mutex and returns its unlock: `defer l.Lock(id)()`.
func (l *Striped) Lock(key string) (unlock func()) {
	m := &l[l.slot(key)]
	m.Lock()
	return m.Unlock
}

func (l *Striped) slot(key string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return h.Sum32() % uint32(len(l))
}
