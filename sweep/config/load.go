package config

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// methods are the request methods load.method allows.
var methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// headerName is the HTTP token rule for header names.
var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// load reads [load].
func (p *parser) load(t *table) {
	l := &p.c.Load
	l.Concurrency = p.levels(t)
	l.Warmup = t.duration("warmup", 2*time.Second)
	l.Duration = t.duration("duration", 3*time.Second)
	l.Timeout = t.duration("timeout", 5*time.Second)
	p.rounds(t)
	l.Slice = p.slice(t, l.Duration)
	l.AA = t.boolean("aa", true)
	l.Method = t.oneOf("method", "GET", methods...)
	l.Path = t.str("path", "/")
	l.Body = t.str("body", "")
	l.Headers = t.stringMap("headers", headerName.MatchString, "an HTTP header name (a token such as X-Request-Id)")
	if p.err != nil {
		return
	}
	if u, err := url.ParseRequestURI(l.Path); err != nil || !strings.HasPrefix(l.Path, "/") || u.Host != "" {
		p.failf(`load.path = %q: want a request path starting with "/", e.g. "/" or "/api?x=1"`, l.Path)
		return
	}
	for _, name := range sortedKeys(t.sub("headers").m) {
		if v := l.Headers[name]; strings.ContainsAny(v, "\r\n\x00") {
			p.failf("load.headers.%s = %q: header values may not contain line breaks or NUL", name, v)
			return
		}
		if strings.EqualFold(name, "Host") || strings.EqualFold(name, "Content-Length") {
			p.failf("load.headers.%s: set by sweep; the %s header may not be overridden", name, http.CanonicalHeaderKey(name))
			return
		}
	}
	if len(p.c.Points) == 1 && !l.AA {
		p.failf("load.aa = false: the grid has a single point, so nothing would be compared; keep aa = true (its A/A twin gives the noise band) or add a [grid] axis with two or more values")
	}
}

// levels reads load.concurrency: 1..MaxConcurrency each, no duplicates,
// returned sorted ascending. Default [1, 4, 16].
func (p *parser) levels(t *table) []int {
	const key = "load.concurrency"
	v, ok := t.get("concurrency")
	if !ok {
		return []int{1, 4, 16}
	}
	want := "an array of concurrency levels from 1 to 10000, e.g. [1, 4, 16]"
	arr, isArr := v.([]any)
	if !isArr {
		t.wrongType("concurrency", v, want)
		return nil
	}
	if len(arr) == 0 || len(arr) > MaxLevels {
		p.failf("%s = %s: want 1 to %d levels", key, show(v), MaxLevels)
		return nil
	}
	levels := make([]int, 0, len(arr))
	for i, e := range arr {
		n, isInt := e.(int64)
		if !isInt {
			p.failf("%s[%d] = %s: %s is not allowed; want an integer from 1 to %d", key, i, show(e), typeName(e), MaxConcurrency)
			return nil
		}
		if n < 1 || n > MaxConcurrency {
			p.failf("%s[%d] = %d: want an integer from 1 to %d", key, i, n, MaxConcurrency)
			return nil
		}
		if j := slices.Index(levels, int(n)); j >= 0 {
			p.failf("%s[%d] = %d: duplicate of %s[%d]", key, i, n, key, j)
			return nil
		}
		levels = append(levels, int(n))
	}
	slices.Sort(levels)
	return levels
}

// slice reads load.slice: "0" (or any zero duration) for unsliced
// windows, else a duration from MinSlice up to load.duration. Default
// DefaultSlice, capped at load.duration: interleaving cancels the drift of
// a shared VM in the paired comparisons (A/A band ±0.4–7% instead of
// ±3–24% on this project's VM) and left the effects of grid.toml's
// settings where continuous windows put them; but a server loaded in
// 50 ms bursts used up to ~25% more CPU per request at c ≥ 4 there, so
// absolute capacity figures want "0" (BENCHMARKS.md, item 3).
func (p *parser) slice(t *table, duration time.Duration) time.Duration {
	const key = "load.slice"
	want := fmt.Sprintf(`"0" (one piece per window) or a Go duration from %s up to load.duration (%s), e.g. "50ms"`, MinSlice, duration)
	v, ok := t.get("slice")
	if !ok {
		return min(DefaultSlice, duration)
	}
	s, isStr := v.(string)
	if !isStr {
		t.wrongType("slice", v, want)
		return 0
	}
	if s == "0" {
		return 0
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		p.fail(err, "%s = %q: not a duration; want %s", key, s, want)
	case d == 0:
	case d < MinSlice || d > duration:
		p.failf("%s = %q: want %s", key, s, want)
	}
	return d
}

// rounds reads load.rounds: an integer 1..MaxRounds, or "auto" with
// load.min_rounds (default 0: one more than the fewest pairs with which
// the run's correction allows any verdict, worked out by the driver) and
// load.max_rounds (default 30).
func (p *parser) rounds(t *table) {
	l := &p.c.Load
	v, ok := t.get("rounds")
	if s, isStr := v.(string); ok && isStr {
		if s == "race" {
			p.raceRounds(t)
			return
		}
		if s != "auto" {
			p.failf(`load.rounds = %q: want an integer from 1 to %d, "auto" or "race"`, s, MaxRounds)
			return
		}
		l.Auto = true
		l.MinRounds = int(t.integer("min_rounds", 0, 2, MaxRounds))
		l.MaxRounds = int(t.integer("max_rounds", 30, 2, MaxRounds))
		if p.err == nil && l.MinRounds > 0 && l.MaxRounds < l.MinRounds {
			p.failf("load.max_rounds = %d: below load.min_rounds = %d", l.MaxRounds, l.MinRounds)
		}
		l.Rounds = l.MaxRounds
		return
	}
	l.Rounds = int(t.integer("rounds", DefaultRounds, 1, MaxRounds))
	for _, k := range []string{"min_rounds", "max_rounds"} {
		if t.has(k) && p.err == nil {
			p.failf(`load.%s: only with load.rounds = "auto"%s`, k, map[bool]string{true: ` or "race"`}[k == "max_rounds"])
		}
	}
}
