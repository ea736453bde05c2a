package grid

import (
	"fmt"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func labels(points []sweep.Point) []string {
	out := make([]string, len(points))
	for i, p := range points {
		out[i] = p.Label()
	}
	return out
}

func TestExpandOrder(t *testing.T) {
	tests := []struct {
		name string
		axes []Axis
		want []string
	}{
		{"no axes", nil, []string{"(default)"}},
		{"one axis keeps written order", []Axis{{"k", []string{"1MiB", "0", "64KiB"}}},
			[]string{"k=1MiB", "k=0", "k=64KiB"}},
		{"last axis fastest", []Axis{{"a", []string{"1", "2"}}, {"b", []string{"x", "y", "z"}}},
			[]string{"a=1 b=x", "a=1 b=y", "a=1 b=z", "a=2 b=x", "a=2 b=y", "a=2 b=z"}},
		{"file order, not name order", []Axis{{"z", []string{"1", "2"}}, {"a", []string{"x", "y"}}},
			[]string{"a=x z=1", "a=y z=1", "a=x z=2", "a=y z=2"}},
		{"three axes", []Axis{{"a", []string{"0", "1"}}, {"b", []string{"0", "1"}}, {"c", []string{"0", "1"}}},
			[]string{
				"a=0 b=0 c=0", "a=0 b=0 c=1", "a=0 b=1 c=0", "a=0 b=1 c=1",
				"a=1 b=0 c=0", "a=1 b=0 c=1", "a=1 b=1 c=0", "a=1 b=1 c=1",
			}},
		{"empty axis yields nothing", []Axis{{"a", []string{"1"}}, {"b", nil}}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := labels(Expand(tt.axes))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || len(got) != len(tt.want) {
				t.Errorf("Expand = %q, want %q", got, tt.want)
			}
			if n := Size(tt.axes, 0); n != len(tt.want) {
				t.Errorf("Size = %d, want %d", n, len(tt.want))
			}
		})
	}
}

func TestExpandPointsAreIndependent(t *testing.T) {
	points := Expand([]Axis{{"a", []string{"1", "2"}}, {"b", []string{"x", "y"}}})
	points[0]["a"] = "changed"
	if points[1]["a"] != "1" {
		t.Fatalf("points share storage: points[1] = %v", points[1])
	}
}

func TestSizeLimit(t *testing.T) {
	ten := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	axes := []Axis{{"a", ten}, {"b", ten}, {"c", ten}, {"d", ten}}
	if n := Size(axes, 0); n != 10000 {
		t.Fatalf("Size unlimited = %d, want 10000", n)
	}
	if n := Size(axes, 500); n != 501 {
		t.Fatalf("Size(limit 500) = %d, want 501", n)
	}
	if n := Size(axes, 10000); n != 10000 {
		t.Fatalf("Size(limit 10000) = %d, want 10000", n)
	}
}
