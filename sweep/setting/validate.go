package setting

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep/spelling"
	"github.com/sweep-dev/sweep/sweep/units"
)

// ErrSetting is wrapped by every validation error.
var ErrSetting = errors.New("invalid setting")

// settingError is a one-line error naming the setting, its value and what
// is allowed, and wrapping ErrSetting (and the parser's error, if any).
type settingError struct {
	msg   string
	cause error
}

func (e *settingError) Error() string { return e.msg }

func (e *settingError) Unwrap() []error {
	if e.cause != nil {
		return []error{ErrSetting, e.cause}
	}
	return []error{ErrSetting}
}

// Validate checks that value is allowed for the setting name. The error is
// one line, e.g. `linear_memory_keep_resident = "2MB": want a size ...`;
// an unknown name is reported with the closest known names.
func Validate(name, value string) error {
	o, ok := Lookup(name)
	if !ok {
		return unknownError(name)
	}
	_, err := o.parse(value)
	return err
}

// allowed describes the values an option accepts.
func (o Option) allowed() string {
	switch o.Kind {
	case Count:
		if o.min > 0 {
			return fmt.Sprintf("want an integer from %d to %d", o.min, uint64(math.MaxUint32))
		}
		return fmt.Sprintf("want an integer from 0 to %d", uint64(math.MaxUint32))
	case Int:
		if o.min > 0 {
			return fmt.Sprintf("want an integer of at least %d", o.min)
		}
		return "want a non-negative integer"
	case Size:
		s := `want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB")`
		switch {
		case o.min > 0 && o.max > 0:
			s += fmt.Sprintf(" from %s to %s (%s)", units.Size(o.min), units.Size(o.max), o.maxWhy)
		case o.min > 0:
			s += fmt.Sprintf(" of at least %s", units.Size(o.min))
		case o.max > 0:
			s += fmt.Sprintf(" up to %s (%s)", units.Size(o.max), o.maxWhy)
		}
		return s
	case Bool:
		return "want true or false"
	case Duration:
		return `want a non-negative Go duration (e.g. "0s", "250us", "1ms")`
	}
	return "unsupported kind"
}

// parse converts value to the option's raw value (see Settings.Value).
func (o Option) parse(value string) (uint64, error) {
	fail := func(cause error) error {
		msg := fmt.Sprintf("%s = %q: %s", o.Name, value, o.allowed())
		if hint := sizeHint(o.Kind, value); hint != "" {
			msg += "; " + hint
		}
		return &settingError{msg: msg, cause: cause}
	}
	v := strings.TrimSpace(value)
	switch o.Kind {
	case Count:
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil || n < o.min {
			return 0, fail(err)
		}
		return n, nil
	case Int:
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n < o.min {
			return 0, fail(err)
		}
		return n, nil
	case Size:
		n, err := units.ParseSize(v)
		if err != nil || uint64(n) < o.min || (o.max > 0 && uint64(n) > o.max) {
			return 0, fail(err)
		}
		return uint64(n), nil
	case Bool:
		switch v {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		return 0, fail(nil)
	case Duration:
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return 0, fail(err)
		}
		return uint64(d), nil
	}
	return 0, fail(nil)
}

// sizeHint explains the common mistake of SI units for sizes.
func sizeHint(k Kind, value string) string {
	if k != Size {
		return ""
	}
	l := strings.ToLower(strings.TrimSpace(value))
	for _, u := range []string{"kb", "mb", "gb", "tb", "k", "m", "g"} {
		if strings.HasSuffix(l, u) && !strings.HasSuffix(l, "i"+u) {
			return "SI units like MB are not accepted; write KiB, MiB, GiB"
		}
	}
	return ""
}

// unknownError reports an unknown setting name with close matches.
func unknownError(name string) error {
	msg := fmt.Sprintf("unknown setting %q", name)
	if close := spelling.Close(name, Names(), 3); len(close) > 0 {
		msg += "; did you mean " + strings.Join(close, " or ") + "?"
	} else {
		msg += "; known settings: " + strings.Join(Names(), ", ")
	}
	return &settingError{msg: msg}
}
