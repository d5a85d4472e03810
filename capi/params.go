package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A model's hyperparameters are its exported fields of plain data types
// (booleans, numbers, strings, slices of them, and named types of these,
// such as enumerations with a String method) and its fields of an
// interface type that a component implements (a kernel, a spectral
// transform: components.go), given as {"type": "kernel.Gaussian", "Sigma":
// 1}. Fields of function, pointer or struct type (progress callbacks, warm
// starts) are not hyperparameters: they cannot come from JSON.

func hyperStruct(m any) reflect.Value {
	v := reflect.ValueOf(m)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v
}

func plainType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	case reflect.Slice, reflect.Array:
		return plainType(t.Elem())
	}
	return false
}

// hyperField is one hyperparameter: its name and its index path (fields of
// an embedded struct, such as stkr.Classifier's Regressor, are promoted).
type hyperField struct {
	name  string
	index []int
}

// hyperFields returns v's hyperparameter fields, in declaration order.
func hyperFields(v reflect.Value) []hyperField {
	var out []hyperField
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			idx := append(slices.Clone(prefix), i)
			switch {
			case f.Anonymous && f.IsExported() && f.Type.Kind() == reflect.Struct:
				walk(f.Type, idx)
			case f.IsExported() && !f.Anonymous && (plainType(f.Type) || f.Type.Kind() == reflect.Interface && len(componentsOf(f.Type)) > 0):
				out = append(out, hyperField{f.Name, idx})
			}
		}
	}
	walk(v.Type(), nil)
	return out
}

func hyperNames(v reflect.Value) []string {
	var names []string
	for _, f := range hyperFields(v) {
		names = append(names, f.name)
	}
	return names
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

// isEnum reports whether t is a named integer type with a String method:
// its values are set and shown by name.
func isEnum(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return t.Implements(stringerType)
	}
	return false
}

// enumNames lists the names of t's values 0..63 that have one (a String
// that is not the fallback "Type(n)").
func enumNames(t reflect.Type) map[string]int64 {
	out := map[string]int64{}
	for i := int64(0); i < 64; i++ {
		v := reflect.New(t).Elem()
		v.SetInt(i)
		s := v.Interface().(fmt.Stringer).String()
		if !strings.Contains(s, "(") && s != "" {
			if _, dup := out[s]; !dup {
				out[s] = i
			}
		}
	}
	return out
}

// setParams sets m's hyperparameters from a JSON object whose keys are
// field names. An unknown key, or a value of the wrong type, is an error
// naming the field.
func setParams(kind string, m any, js []byte) error {
	if len(bytes.TrimSpace(js)) == 0 {
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(js, &raw); err != nil {
		return fmt.Errorf("%s: the hyperparameters are not a JSON object: %w", kind, err)
	}
	v := hyperStruct(m)
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fields := hyperFields(v)
	names := hyperNames(v)
	for _, k := range keys {
		i := slices.Index(names, k)
		if i < 0 {
			return fmt.Errorf("%s has no hyperparameter %q; its hyperparameters are %s", kind, k, strings.Join(names, ", "))
		}
		f := v.FieldByIndex(fields[i].index)
		if err := setField(f, raw[k]); err != nil {
			return fmt.Errorf("%s: hyperparameter %s: %w", kind, k, err)
		}
	}
	return nil
}

func setField(f reflect.Value, raw json.RawMessage) error {
	t := f.Type()
	if t.Kind() == reflect.Interface {
		return setComponent(f, raw)
	}
	if isEnum(t) {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			names := enumNames(t)
			i, ok := names[s]
			if !ok {
				valid := make([]string, 0, len(names))
				for n := range names {
					valid = append(valid, fmt.Sprintf("%q", n))
				}
				slices.Sort(valid)
				return fmt.Errorf("%q is invalid: want one of %s", s, strings.Join(valid, ", "))
			}
			f.SetInt(i)
			return nil
		}
	}
	p := reflect.New(t)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p.Interface()); err != nil {
		return fmt.Errorf("%s is not a %s: %w", raw, t, err)
	}
	f.Set(p.Elem())
	return nil
}

// getParams returns m's hyperparameters as a JSON object in field order,
// enumerations by name.
func getParams(m any) ([]byte, error) {
	v := hyperStruct(m)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for j, hf := range hyperFields(v) {
		if j > 0 {
			buf.WriteByte(',')
		}
		name, _ := json.Marshal(hf.name)
		buf.Write(name)
		buf.WriteByte(':')
		f := v.FieldByIndex(hf.index)
		var val any = f.Interface()
		if isEnum(f.Type()) {
			val = f.Interface().(fmt.Stringer).String()
		}
		var b []byte
		var err error
		if f.Kind() == reflect.Interface {
			b, err = componentJSON(f)
		} else {
			b, err = json.Marshal(val)
		}
		if err != nil {
			return nil, fmt.Errorf("hyperparameter %s: %w", hf.name, err)
		}
		buf.Write(b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
