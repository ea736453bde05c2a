package config

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	vars := map[string]string{"port": "8080", "keep": "64KiB", "empty": ""}
	tests := []struct {
		tmpl, want, err string
	}{
		{"", "", ""},
		{"plain", "plain", ""},
		{"--port={{port}}", "--port=8080", ""},
		{"{{ port }}:{{keep}}", "8080:64KiB", ""},
		{"a{{empty}}b", "ab", ""},
		{"}} stays", "}} stays", ""},
		{"{{keep}}{{keep}}", "64KiB64KiB", ""},
		{"{{kep}}", "", `unknown template variable "kep" in "{{kep}}" (known: empty, keep, port)`},
		{"x {{port", "", `unclosed "{{" in "x {{port"`},
		{"{{}}", "", `invalid template variable ""`},
		{"{{a-b}}", "", `invalid template variable "a-b"`},
	}
	for _, tt := range tests {
		got, err := Render(tt.tmpl, vars)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Render(%q) error = %v, want %q", tt.tmpl, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Render(%q) = %q, %v; want %q", tt.tmpl, got, err, tt.want)
		}
	}
}

func TestVariables(t *testing.T) {
	names, err := variables("{{a}}-{{ b }}-{{a}}")
	if err != nil || strings.Join(names, ",") != "a,b,a" {
		t.Errorf("variables = %v, %v", names, err)
	}
}
