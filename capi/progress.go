package main

import (
	"reflect"
)

// setProgress points m's Progress field, when it has one whose parameters
// are integers and floats (func(iteration int, residual float64), or
// stkr's func(column, iteration int, residual float64), …), at report,
// which receives the last integer (the iteration) and the first float (the
// residual or objective) of each call. It returns the function that puts
// the field back, so that no callback outlives the call that gave it.
func setProgress(m any, report func(iteration int64, value float64)) (restore func(), ok bool) {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return func() {}, false
	}
	f := v.Elem().FieldByName("Progress")
	if !f.IsValid() || !f.CanSet() || f.Kind() != reflect.Func {
		return func() {}, false
	}
	t := f.Type()
	if t.NumOut() != 0 {
		return func() {}, false
	}
	for i := range t.NumIn() {
		switch t.In(i).Kind() {
		case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32:
		default:
			return func() {}, false
		}
	}
	old := reflect.ValueOf(f.Interface())
	f.Set(reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		var it int64
		var val float64
		seenFloat := false
		for _, a := range args {
			switch a.Kind() {
			case reflect.Float64, reflect.Float32:
				if !seenFloat {
					val, seenFloat = a.Float(), true
				}
			default:
				it = a.Int()
			}
		}
		report(it, val)
		return nil
	}))
	return func() { f.Set(old) }, true
}
