package config

import "github.com/sweep-dev/sweep/sweep/units"

// budgetWant is what a memory budget accepts.
const budgetWant = `a size above 0: a byte count or an integer with a binary unit such as "512MiB" or "2GiB"`

// budgets reads the memory budgets of [analysis]: max_rss and
// max_reserved (0, the default, is no budget).
func (p *parser) budgets(t *table) {
	a := &p.c.Analysis
	a.MaxRSS = p.budget(t, "max_rss")
	a.MaxReserved = p.budget(t, "max_reserved")
}

// budget reads one memory budget k of t: a TOML integer (bytes) or a
// size string, above 0.
func (p *parser) budget(t *table, k string) units.Size {
	v, ok := t.get(k)
	if !ok {
		return 0
	}
	var s units.Size
	switch x := v.(type) {
	case int64:
		if x <= 0 {
			p.failf("%s = %d: want %s", t.key(k), x, budgetWant)
			return 0
		}
		s = units.Size(x)
	case string:
		n, err := units.ParseSize(x)
		if err != nil {
			p.fail(err, "%s = %q: want %s", t.key(k), x, budgetWant)
			return 0
		}
		if n == 0 {
			p.failf("%s = %q: want %s", t.key(k), x, budgetWant)
			return 0
		}
		s = n
	default:
		t.wrongType(k, v, budgetWant)
		return 0
	}
	return s
}
