package wasmhost

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// LimitError is a component that the pooling allocator refuses to load:
// one of the per-component limits is below what the component needs.
// Wasmtime checks these when a component is loaded, not per request.
type LimitError struct {
	Plugin string
	Option string // e.g. "max_core_instances_per_component"
	Value  string // the option's value in effect
	Need   int64  // what the component needs
	What   string // the unit of Need, e.g. "core module instances"
	// Detail is Wasmtime's message.
	Detail string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("plugin %s: %s = %s is below what the component needs: %d %s",
		e.Plugin, e.Option, e.Value, e.Need, e.What)
}

// componentLimits are Wasmtime 39's load-time refusals of a component (by
// a piece of their message) and the option behind each. The numbers come
// only in the message text.
var componentLimits = []struct {
	text, option, what string
	need               *regexp.Regexp
}{
	{" core module instances, which exceeds", "max_core_instances_per_component", "core module instances", regexp.MustCompile(`contains (\d+) core module instances`)},
	{" Wasm linear memories, which exceeds", "max_memories_per_component", "linear memories", regexp.MustCompile(`contains (\d+) Wasm linear memories`)},
	{" tables, which exceeds", "max_tables_per_component", "tables", regexp.MustCompile(`contains (\d+) tables`)},
	{"`VMComponentContext` space", "max_component_instance_size", "bytes of component instance state (VMComponentContext)", regexp.MustCompile(`requires (\d+) bytes of`)},
}

// limitError recognises a load-time limit refusal in msg; nil otherwise.
func (h *Host) limitError(msg string) *LimitError {
	for _, l := range componentLimits {
		if !strings.Contains(msg, l.text) {
			continue
		}
		e := &LimitError{Plugin: h.pluginName(), Option: l.option, Value: h.settingValue(l.option), What: l.what, Detail: msg}
		if m := l.need.FindStringSubmatch(msg); m != nil {
			e.Need, _ = strconv.ParseInt(m[1], 10, 64)
		}
		return e
	}
	return nil
}
