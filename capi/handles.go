package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// table holds every object C refers to, by a handle that is never reused.
type table struct {
	mu   sync.Mutex
	next int64
	objs map[int64]any
}

var handles = &table{objs: map[int64]any{}}

// put stores v and returns its new handle.
func (t *table) put(v any) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	t.objs[t.next] = v
	return t.next
}

// get returns the object of handle h.
func (t *table) get(h int64) (any, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.objs[h]
	return v, ok
}

// remove drops handle h and returns its object.
func (t *table) remove(h int64) (any, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.objs[h]
	delete(t.objs, h)
	return v, ok
}

// len is the number of live handles (for tests and gssl_live_handles).
func (t *table) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.objs)
}

// errHandle is the error of a stale or wrong-kind handle.
var errHandle = errors.New("invalid handle")

// lookup returns handle h's object as a T, or an error naming what was
// expected.
func lookup[T any](h int64, what string) (T, error) {
	var zero T
	v, ok := handles.get(h)
	if !ok {
		return zero, fmt.Errorf("%w: %d is not a live handle (freed, or never made)", errHandle, h)
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%w: handle %d is a %s, not a %s", errHandle, h, kindOf(v), what)
	}
	return t, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case *graphEntry:
		return "graph"
	case *modelEntry:
		return "model"
	case *result:
		return "result"
	case *matrixEntry:
		return "matrix"
	case *call:
		return "call"
	}
	return fmt.Sprintf("%T", v)
}

// call is one C call's context, its cancel function and its last error.
type call struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu   sync.Mutex
	code int32
	msg  string
}

func newCall() *call {
	ctx, cancel := context.WithCancel(context.Background())
	return &call{ctx: ctx, cancel: cancel}
}

// fail records err on c and returns its code.
func (c *call) fail(err error) int32 {
	code := codeOf(err)
	c.mu.Lock()
	c.code, c.msg = code, err.Error()
	c.mu.Unlock()
	return code
}

// result is an array computed by a call, copied out by gssl_result_copy.
// Exactly one of f64, i64 and bytes is used.
type result struct {
	rows, cols int
	f64        []float64
	i64        []int64
	bytes      []byte
}

// Result dtypes, as gssl_result_info reports them.
const (
	dtypeFloat64 = 1
	dtypeInt64   = 2
	dtypeBytes   = 3
)

func (r *result) dtype() int {
	switch {
	case r.i64 != nil:
		return dtypeInt64
	case r.bytes != nil:
		return dtypeBytes
	}
	return dtypeFloat64
}

// nbytes is the size of the result's data in bytes.
func (r *result) nbytes() int {
	switch r.dtype() {
	case dtypeInt64:
		return 8 * len(r.i64)
	case dtypeBytes:
		return len(r.bytes)
	}
	return 8 * len(r.f64)
}
