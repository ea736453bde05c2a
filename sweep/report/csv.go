package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// CSV writes results.csv: a header and one row per window with every
// sweep.Window field flattened, named by its JSON key. The point becomes
// one "point.<axis>" column per axis seen in ws; status_codes and
// transport_errors are written as "key:count;…" in key order; times are
// RFC 3339 in UTC. Fields added to sweep.Window later appear by themselves.
func CSV(w io.Writer, ws []sweep.Window) error {
	axes := windowAxes(ws)
	cols := windowColumns()
	cw := csv.NewWriter(w)
	var header []string
	for _, c := range cols {
		if c.point {
			for _, a := range axes {
				header = append(header, "point."+a)
			}
			continue
		}
		header = append(header, c.name)
	}
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("writing results.csv: %w", err)
	}
	row := make([]string, 0, len(header))
	for _, win := range ws {
		row = row[:0]
		v := reflect.ValueOf(win)
		for _, c := range cols {
			if c.point {
				for _, a := range axes {
					row = append(row, win.Point[a])
				}
				continue
			}
			row = append(row, csvValue(v.FieldByIndex(c.index)))
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("writing results.csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing results.csv: %w", err)
	}
	return nil
}

// column is one exported, JSON-visible field of sweep.Window.
type column struct {
	name  string
	index []int // the field's index path (reflect.Value.FieldByIndex)
	point bool
}

// windowColumns lists sweep.Window's fields in declaration order, the
// fields of an embedded struct (sweep.WindowMemory) in its place, but for
// the record's schema (results.jsonl's, not a measurement).
func windowColumns() []column {
	cols := structColumns(reflect.TypeOf(sweep.Window{}), nil)
	// The record's schema is results.jsonl's, not a measurement.
	return slices.DeleteFunc(cols, func(c column) bool { return c.name == "schema" })
}

// structColumns lists t's fields as columns, their index paths below at.
func structColumns(t reflect.Type, at []int) []column {
	var cols []column
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		idx := append(append([]int(nil), at...), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			cols = append(cols, structColumns(f.Type, idx)...)
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, _, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue
			}
			if n != "" {
				name = n
			}
		}
		cols = append(cols, column{name: name, index: idx, point: f.Type == reflect.TypeOf(sweep.Point{})})
	}
	return cols
}

// windowAxes is the sorted union of the windows' point axes.
func windowAxes(ws []sweep.Window) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		for k := range w.Point {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// csvValue formats one field value.
func csvValue(v reflect.Value) string {
	if t, ok := v.Interface().(time.Time); ok {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	switch v.Kind() {
	case reflect.Pointer: // an optional figure: empty when absent
		if v.IsNil() {
			return ""
		}
		return csvValue(v.Elem())
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, fmt.Sprint(k.Interface()))
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + fmt.Sprint(v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())).Interface())
		}
		return strings.Join(parts, ";")
	default:
		return fmt.Sprint(v.Interface())
	}
}
