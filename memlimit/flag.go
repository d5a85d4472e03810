package memlimit

import "fmt"

// ParseFlag reads the value s of the memory-size option name (such as
// max-memory): a size as Parse reads it, empty meaning Default. Its error
// names the option.
func ParseFlag(name, s string) (int64, error) {
	if s == "" {
		s = Format(Default()) // the option's default, for callers that build options by hand
	}
	v, err := Parse(s)
	if err != nil {
		return 0, fmt.Errorf("--%s %q is invalid: give a positive size such as 8GB or 512MB", name, s)
	}
	return v, nil
}
