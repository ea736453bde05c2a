package target

import (
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	long := strings.Repeat("y", maxLine+100)
	tests := []struct {
		name   string
		n      int
		writes []string
		want   string
		lines  []string // seen by onLine
	}{
		{"empty", 3, nil, "", nil},
		{"fewer than n", 3, []string{"a\nb\n"}, "a\nb", []string{"a", "b"}},
		{"ring wraps", 2, []string{"1\n2\n3\n4\n"}, "3\n4", []string{"1", "2", "3", "4"}},
		{"split writes", 3, []string{"hel", "lo\nwor", "ld\n"}, "hello\nworld", []string{"hello", "world"}},
		{"partial last line", 2, []string{"a\nb\nc"}, "b\nc", []string{"a", "b"}},
		{"crlf", 2, []string{"a\r\n"}, "a", []string{"a"}},
		{"long line capped", 2, []string{long + "\nz\n"}, long[:maxLine] + "…\nz", []string{long[:maxLine] + "…", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen []string
			tl := newTail(tt.n, func(l string) { seen = append(seen, l) })
			for _, w := range tt.writes {
				if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := tl.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if strings.Join(seen, "|") != strings.Join(tt.lines, "|") {
				t.Errorf("onLine saw %q, want %q", seen, tt.lines)
			}
		})
	}
}
