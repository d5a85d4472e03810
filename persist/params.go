package persist

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/gssl/gssl/estimator"
)

// NodeClassifierKinds lists the registered kinds whose models classify the
// nodes of a graph (estimator.NodeClassifier), in the order of Kinds.
func NodeClassifierKinds() []string {
	var out []string
	for _, k := range registry {
		if _, ok := k.new().(estimator.NodeClassifier); ok {
			out = append(out, k.name)
		}
	}
	return out
}

// NewNodeClassifier returns an unfitted node classifier of the named kind
// with its hyperparameters at their defaults, then set by params, each
// "Field=value" (see SetParam), and checked by its Validate.
func NewNodeClassifier(kind string, params ...string) (estimator.NodeClassifier, error) {
	pm, err := New(kind)
	if err != nil {
		return nil, err
	}
	m, ok := pm.(estimator.NodeClassifier)
	if !ok {
		return nil, fmt.Errorf("persist: %s is not a node classifier (those are %s)", kind, strings.Join(NodeClassifierKinds(), ", "))
	}
	for _, p := range params {
		name, value, ok := strings.Cut(p, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("persist: %q: want Field=value", p)
		}
		if err := SetParam(m, name, value); err != nil {
			return nil, fmt.Errorf("persist: %s: %w", p, err)
		}
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// SetParam sets the hyperparameter name of the model m points to (an
// exported field of a number, bool or string type, named as in Go or in
// snake_case, in any case: "Alpha", "max_iter") to value, parsed for the
// field's type. It does not validate the value against the model (its
// Validate does); an unknown name is an error listing the fields that can
// be set.
func SetParam(m any, name, value string) error {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("persist: a %T has no fields to set", m)
	}
	v = v.Elem()
	t := v.Type()
	key := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || !settable(f.Type.Kind()) {
			continue
		}
		names = append(names, f.Name)
		if strings.ToLower(f.Name) == key {
			if err := setValue(v.Field(i), value); err != nil {
				return fmt.Errorf("%s is a %s: %q is not one", f.Name, f.Type, value)
			}
			return nil
		}
	}
	return fmt.Errorf("%s has no field %q that can be set; it has %s", t.Name(), name, strings.Join(names, ", "))
}

// setValue parses s into the number, bool or string fv.
func setValue(fv reflect.Value, s string) error {
	switch fv.Kind() {
	case reflect.Float64, reflect.Float32:
		x, err := strconv.ParseFloat(s, fv.Type().Bits())
		if err == nil {
			fv.SetFloat(x)
		}
		return err
	case reflect.Int, reflect.Int64, reflect.Int32:
		x, err := strconv.ParseInt(s, 10, fv.Type().Bits())
		if err == nil {
			fv.SetInt(x)
		}
		return err
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		x, err := strconv.ParseUint(s, 10, fv.Type().Bits())
		if err == nil {
			fv.SetUint(x)
		}
		return err
	case reflect.Bool:
		x, err := strconv.ParseBool(s)
		if err == nil {
			fv.SetBool(x)
		}
		return err
	case reflect.String:
		fv.SetString(s)
		return nil
	}
	return errors.New("not a settable type")
}

func settable(k reflect.Kind) bool {
	switch k {
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32, reflect.Uint, reflect.Bool, reflect.String:
		return true
	}
	return false
}

// SetParams sets the hyperparameters of the model m points to from
// params, each "Field=value" (SetParam); an error names the setting it is
// about ("Alpha=3: …").
func SetParams(m any, params []string) error {
	for _, p := range params {
		name, value, ok := strings.Cut(p, "=")
		err := errors.New("want Field=value")
		if ok && name != "" {
			err = SetParam(m, name, value)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}
