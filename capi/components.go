package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/stkr"
)

// components are the value types a hyperparameter of interface type can
// hold (a kernel, a spectral transform): structs of plain fields, given in
// JSON as {"type": "kernel.Gaussian", "Sigma": 1}. A field of interface type
// is a hyperparameter when one of them implements the interface.
var components = []reflect.Type{
	reflect.TypeFor[kernel.Gaussian](),
	reflect.TypeFor[kernel.Laplacian](),
	reflect.TypeFor[kernel.Matern](),
	reflect.TypeFor[kernel.Linear](),
	reflect.TypeFor[kernel.Polynomial](),
	reflect.TypeFor[stkr.Polynomial](),
	reflect.TypeFor[stkr.InverseLaplacian](),
	reflect.TypeFor[stkr.TopD](),
	// the base models of Correct & Smooth (nodeclass.CorrectSmooth.Base),
	// given by their hyperparameters (models refuse JSON: fieldsOnly)
	reflect.TypeFor[nodeclass.SGC](),
	reflect.TypeFor[nodeclass.APPNP](),
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// fieldsOnly reports whether component type t (a struct) has its own JSON
// methods (a model, which refuses JSON): its value is then read and written
// through its hyperparameter fields, as a model's are (params.go).
func fieldsOnly(t reflect.Type) bool {
	return t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) ||
		reflect.PointerTo(t).Implements(jsonUnmarshaler)
}

// modelComponents maps the type of every model kind (a pointer type) to
// its kind: a hyperparameter of an interface type that models implement
// (the base classifier of a wrapper, the regression of a classifier) holds
// a model, given by its kind and hyperparameters as {"type": kind,
// fields…}, as a component is.
var modelComponents = sync.OnceValue(func() map[reflect.Type]string {
	out := map[reflect.Type]string{}
	for _, k := range kindNames() {
		if m, err := newKind(k); err == nil {
			out[reflect.TypeOf(m)] = k
		}
	}
	return out
})

// componentsOf lists the component types (or pointers to them) that
// implement interface type t, then the model kinds that do (for an
// interface with methods), sorted by kind.
func componentsOf(t reflect.Type) []reflect.Type {
	var out []reflect.Type
	for _, c := range components {
		switch {
		case c.Implements(t):
			out = append(out, c)
		case reflect.PointerTo(c).Implements(t):
			out = append(out, reflect.PointerTo(c))
		}
	}
	if t.NumMethod() == 0 {
		return out
	}
	var models []reflect.Type
	for c := range modelComponents() {
		if c.Implements(t) && !slices.Contains(out, c) {
			models = append(models, c)
		}
	}
	slices.SortFunc(models, func(a, b reflect.Type) int { return strings.Compare(componentName(a), componentName(b)) })
	return append(out, models...)
}

// componentName is a model kind's name, or the component type's name.
func componentName(t reflect.Type) string {
	if k, ok := modelComponents()[t]; ok {
		return k
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.String()
}

// byFields reports whether component type c is set and shown through its
// hyperparameter fields (a model) rather than as JSON.
func byFields(c reflect.Type) bool {
	if _, ok := modelComponents()[c]; ok {
		return true
	}
	if c.Kind() == reflect.Pointer {
		c = c.Elem()
	}
	return fieldsOnly(c)
}

// setComponent decodes {"type": name, fields…} into interface field f.
func setComponent(f reflect.Value, raw json.RawMessage) error {
	cands := componentsOf(f.Type())
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = fmt.Sprintf("%q", componentName(c))
	}
	slices.Sort(names)
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		f.Set(reflect.Zero(f.Type()))
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return fmt.Errorf("%s is not an object {\"type\": …, fields…}; the types are %s", raw, strings.Join(names, ", "))
	}
	var name string
	if err := json.Unmarshal(obj["type"], &name); err != nil {
		return fmt.Errorf("%s has no \"type\" string; the types are %s", raw, strings.Join(names, ", "))
	}
	delete(obj, "type")
	for _, c := range cands {
		if componentName(c) != name {
			continue
		}
		elem := c
		if c.Kind() == reflect.Pointer {
			elem = c.Elem()
		}
		p := reflect.New(elem)
		rest, _ := json.Marshal(obj)
		if byFields(c) {
			if err := setParams(name, p.Interface(), rest); err != nil {
				return err
			}
		} else {
			dec := json.NewDecoder(bytes.NewReader(rest))
			dec.DisallowUnknownFields()
			if err := dec.Decode(p.Interface()); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		if c.Kind() == reflect.Pointer {
			f.Set(p)
		} else {
			f.Set(p.Elem())
		}
		return nil
	}
	return fmt.Errorf("type %q is invalid here: want one of %s", name, strings.Join(names, ", "))
}

// componentJSON encodes an interface field's value as {"type": name,
// fields…}, or null.
func componentJSON(f reflect.Value) ([]byte, error) {
	if f.IsNil() {
		return []byte("null"), nil
	}
	v := f.Elem()
	var b []byte
	var err error
	if byFields(v.Type()) {
		b, err = getParams(v.Interface())
	} else {
		b, err = json.Marshal(v.Interface())
	}
	if err != nil {
		return nil, err
	}
	name, _ := json.Marshal(componentName(v.Type()))
	if bytes.Equal(b, []byte("{}")) {
		return []byte(`{"type":` + string(name) + `}`), nil
	}
	return append([]byte(`{"type":`+string(name)+`,`), b[1:]...), nil
}
