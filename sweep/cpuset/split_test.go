package cpuset

import (
	"fmt"
	"strings"
	"testing"
)

// cores names CPUs first..first+n-1 as cores of one package, sibling
// CPUs siblings apart sharing a core (0 = no siblings): the Linux x86
// numbering, where CPU i and CPU i+cores are a core's two threads.
func cores(n, siblings, perPackage int) map[int]string {
	m := map[int]string{}
	for c := 0; c < n; c++ {
		core := c
		if siblings > 0 {
			core = c % siblings
		}
		m[c] = fmt.Sprintf("%d/%d", core/perPackage, core%perPackage)
	}
	return m
}

func mustParse(t *testing.T, s string) Set {
	t.Helper()
	set, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestSplit(t *testing.T) {
	for _, tt := range []struct {
		name         string
		usable       string
		core         map[int]string
		server, load string
		rule         string // a part of the rule's text
	}{
		{"2 CPUs (this VM): 1 + 1", "0-1", cores(2, 0, 64), "0", "1", "2 usable CPUs: half of them (1)"},
		{"4 CPUs", "0-3", cores(4, 0, 64), "0-1", "2-3", "half of them (2) for the server"},
		{"16 CPUs, no SMT", "0-15", cores(16, 0, 64), "0-7", "8-15", ""},
		{"16 CPUs = 8 cores × 2 threads: siblings stay together", "0-15", cores(16, 8, 64), "0-3,8-11", "4-7,12-15", "16 usable CPUs on 8 cores: half of the cores (4)"},
		{"64 CPUs", "0-63", cores(64, 0, 64), "0-31", "32-63", ""},
		{"64 CPUs = 2 sockets × 16 cores × 2 threads: one socket each", "0-63", cores(64, 32, 16), "0-15,32-47", "16-31,48-63", "on 32 cores"},
		{"3 CPUs: the load generator gets the odd one", "0-2", cores(3, 0, 64), "0", "1-2", ""},
		{"affinity restricted to 2,3,5 of 8", "2-3,5", cores(8, 0, 64), "2", "3,5", "3 usable CPUs"},
		{"affinity restricted to two siblings of one core", "1,9", cores(16, 8, 64), "1", "9", "on one core"},
		{"affinity restricted to one CPU: unpinned", "4", cores(8, 0, 64), "", "", "1 usable CPU (4): server and load generator not pinned"},
		{"topology unknown: every CPU its own core", "0-3", nil, "0-1", "2-3", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			usable := mustParse(t, tt.usable)
			p := Split(Machine{Online: usable, Usable: usable, Core: tt.core})
			if p.Server.String() != tt.server || p.Load.String() != tt.load {
				t.Errorf("Split = server %q, load %q; want %q, %q", p.Server, p.Load, tt.server, tt.load)
			}
			if p.Server.Overlaps(p.Load) {
				t.Errorf("server %s and load %s overlap", p.Server, p.Load)
			}
			if missing := append(p.Server.Subset(usable), p.Load.Subset(usable)...); len(missing) > 0 {
				t.Errorf("placed on CPUs %v that are not usable (%s)", missing, usable)
			}
			if len(p.Server)+len(p.Load) != len(usable) && len(usable) >= 2 {
				t.Errorf("placed %d + %d CPUs of %d usable", len(p.Server), len(p.Load), len(usable))
			}
			if !strings.Contains(p.Rule, tt.rule) {
				t.Errorf("rule %q lacks %q", p.Rule, tt.rule)
			}
		})
	}
}

func TestThisMachine(t *testing.T) {
	m, err := ThisMachine()
	if err != nil {
		t.Fatal(err)
	}
	allowed, err := Allowed(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Usable) == 0 || len(m.Usable.Subset(m.Online)) > 0 || len(m.Usable.Subset(allowed)) > 0 {
		t.Errorf("usable %s is not a non-empty part of online %s ∩ allowed %s", m.Usable, m.Online, allowed)
	}
	for c := range m.Core {
		if len(Set{c}.Subset(m.Usable)) > 0 {
			t.Errorf("core of CPU %d, which is not usable", c)
		}
	}
}

func TestIntersect(t *testing.T) {
	if got := mustParse(t, "0-5").Intersect(mustParse(t, "1,3,7")).String(); got != "1,3" {
		t.Errorf("Intersect = %q, want 1,3", got)
	}
}
