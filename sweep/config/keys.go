package config

import (
	"github.com/BurntSushi/toml"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/spelling"
)

// schema lists the keys of every fixed-shape table. The tables [workload],
// [settings], [grid], [baseline], [target.env] and [load.headers] have free
// key names, checked by their own rules.
var schema = map[string][]string{
	"":         {"name", "target", "workload", "settings", "grid", "baseline", "load", "run", "analysis"},
	"target":   {"kind", "plugin", "command", "env", "url", "ready", "ready_timeout", "allow_remote", "gomaxprocs"},
	"load":     {"concurrency", "warmup", "duration", "timeout", "rounds", "min_rounds", "max_rounds", "slice", "aa", "method", "path", "body", "headers"},
	"run":      {"server_cpus", "load_cpus", "share_cpus", "seed", "restarts", "max_restarts", "block_size", "remeasure", "reference", "keep_awake", "server_sched", "budget"},
	"analysis": {"profile", "objective", "target_concurrency", "cliff_error_rate", "confidence", "resolve", "max_rss", "max_reserved"},
}

// unknownKeys records an error for the first key, in file order, that is
// not part of the schema. Key names are case-sensitive (the TOML decoder
// would match struct fields case-insensitively, so the config walks the
// schema itself instead of relying on MetaData.Undecoded).
//
// Keys nested below a fixed key (e.g. load.concurrency.x) are left to the
// type checks, which report the parent's wrong type.
func (p *parser) unknownKeys(keys []toml.Key) {
	for _, k := range keys {
		var section string
		switch len(k) {
		case 1:
			section = ""
		case 2:
			section = k[0]
		default:
			continue
		}
		known, fixed := schema[section]
		if !fixed {
			continue // a free table, or below a key that is not a table
		}
		name := k[len(k)-1]
		if contains(known, name) {
			continue
		}
		p.failf("unknown key %q%s", k.String(), hint(section, name, known))
		return
	}
}

// hint suggests the key the user probably meant: a close name in the same
// table, or the same name in another table.
func hint(section, name string, known []string) string {
	join := func(s, n string) string {
		if s == "" {
			return n
		}
		return s + "." + n
	}
	if s := spelling.Closest(name, known); s != "" {
		return ` (did you mean "` + join(section, s) + `"?)`
	}
	for _, other := range []string{"", "target", "load", "run", "analysis"} {
		if other != section && contains(schema[other], name) {
			return ` (did you mean "` + join(other, name) + `"?)`
		}
	}
	if o, ok := setting.Lookup(name); ok && section == "" {
		if o.Knob {
			return ` (did you mean "workload.` + name + `" or an axis "grid.` + name + `"?)`
		}
		return ` (did you mean "settings.` + name + `" or an axis "grid.` + name + `"?)`
	}
	if section == "" {
		return "; allowed top-level keys: " + quoteList(known)
	}
	return "; allowed keys in [" + section + "]: " + quoteList(known)
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
