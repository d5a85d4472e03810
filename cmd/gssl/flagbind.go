package main

import (
	"fmt"
	"reflect"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// bindFlags declares on f one flag for every field of the struct opts
// points to that carries a `flag:"name"` tag: its default is the field's
// value when bindFlags is called (set from the library's Default…
// constants), its usage the text of the command's help file or, failing
// that, of help/flags.md. Untagged exported struct fields are walked in
// turn, so a group of flags (nodeInput, plotFlags) binds with every command
// that embeds it; a group that implements flagBinder is then given f. A
// tagged field without help text, or of a type with no flag, is a bug of
// the binary and panics (TestHelpFiles builds every command).
func bindFlags(f *pflag.FlagSet, command string, h helpText, opts any) {
	v := reflect.ValueOf(opts)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("bindFlags: %T is not a pointer to a struct", opts))
	}
	t := v.Elem().Type()
	for i := range t.NumField() {
		field, fv := t.Field(i), v.Elem().Field(i)
		name, tagged := field.Tag.Lookup("flag")
		switch {
		case !field.IsExported() || name == "-":
		case !tagged && fv.Kind() == reflect.Struct:
			bindFlags(f, command, h, fv.Addr().Interface())
		case tagged:
			usage, ok := h.Flags[name]
			if !ok {
				usage, ok = sharedFlags[name]
			}
			if !ok {
				panic(fmt.Sprintf("bindFlags: --%s of gssl %s has no text in help/%s.md or help/flags.md", name, command, command))
			}
			bindField(f, name, usage, fv.Addr().Interface())
		}
	}
	if b, ok := opts.(flagBinder); ok {
		b.boundTo(f)
	}
}

// flagBinder is a group of flags that keeps the flag set it was bound to.
type flagBinder interface{ boundTo(*pflag.FlagSet) }

// bindField declares one flag on the field p points to.
func bindField(f *pflag.FlagSet, name, usage string, p any) {
	switch p := p.(type) {
	case pflag.Value:
		f.Var(p, name, usage)
	case *string:
		f.StringVar(p, name, *p, usage)
	case *bool:
		f.BoolVar(p, name, *p, usage)
	case *int:
		f.IntVar(p, name, *p, usage)
	case *int64:
		f.Int64Var(p, name, *p, usage)
	case *uint64:
		f.Uint64Var(p, name, *p, usage)
	case *float64:
		f.Float64Var(p, name, *p, usage)
	case *time.Duration:
		f.DurationVar(p, name, *p, usage)
	case *[]int:
		f.IntSliceVar(p, name, *p, usage)
	case *[]float64:
		f.Float64SliceVar(p, name, *p, usage)
	case *[]string:
		f.StringArrayVar(p, name, *p, usage)
	default:
		panic(fmt.Sprintf("bindFlags: --%s: no flag for a field of type %T", name, p))
	}
}

// bindRenamed registers old as a hidden alias of the flag named new (which
// must already be defined): using it prints a deprecation notice on the
// command's stderr and then sets new.
func bindRenamed(cmd *cobra.Command, old, new string) {
	f := cmd.Flags()
	target := f.Lookup(new)
	if target == nil {
		panic(fmt.Sprintf("help/%s.md: renamed flag --%s: gssl %s has no flag --%s", cmd.Name(), old, cmd.Name(), new))
	}
	f.Var(&aliasValue{cmd: cmd, flags: f, old: old, new: new}, old, "deprecated: use --"+new)
	f.Lookup(old).NoOptDefVal = target.NoOptDefVal
	_ = f.MarkHidden(old)
}

// aliasValue is the flag of an old name: it sets the new one, with a notice.
type aliasValue struct {
	cmd      *cobra.Command
	flags    *pflag.FlagSet
	old, new string
}

func (a *aliasValue) String() string { return "" }
func (a *aliasValue) Type() string   { return a.flags.Lookup(a.new).Value.Type() }
func (a *aliasValue) Set(s string) error {
	fmt.Fprintf(a.cmd.ErrOrStderr(), "gssl %s: --%s is deprecated; use --%s\n", a.cmd.Name(), a.old, a.new)
	return a.flags.Set(a.new, s)
}
