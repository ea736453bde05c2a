package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// TestServerCPUsAxis: grid.server_cpus places each point's servers on
// its own CPUs; the load CPUs default to what no point takes, or (with
// share_cpus) to what not every point takes; every placement problem is
// one line naming the key, the value and what is allowed.
func TestServerCPUsAxis(t *testing.T) {
	tests := []struct {
		name, online, text string
		load, union        string            // want, when err is ""
		points             map[string]string // axis value → its CPUs
		err                string
	}{
		{name: "room for the generator", online: "0-3",
			text:   "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n",
			load:   "2-3",
			union:  "0-1",
			points: map[string]string{"0": "0", "0-1": "0-1"}},
		{name: "integer and list values", online: "0-7",
			text:   "[grid]\nserver_cpus = [0, \"0,2-3\"]\n[run]\nload_cpus = \"6-7\"\n",
			load:   "6-7",
			union:  "0,2-3",
			points: map[string]string{"0": "0", "0,2-3": "0,2-3"}},
		{name: "shared on two CPUs", online: "0-1",
			text:   "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n[run]\nshare_cpus = true\n",
			load:   "1",
			union:  "0-1",
			points: map[string]string{"0": "0", "0-1": "0-1"}},
		{name: "shared, load given", online: "0-1",
			text:   "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n[run]\nshare_cpus = true\nload_cpus = 0\n",
			load:   "0",
			union:  "0-1",
			points: map[string]string{"0": "0", "0-1": "0-1"}},
		{name: "no CPU left", online: "0-1",
			text: "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n",
			err:  `grid.server_cpus: the points' servers take every usable CPU (0-1), which leaves none for the load generator; give the points fewer CPUs, or set run.load_cpus and run.share_cpus = true`},
		{name: "overlap without share", online: "0-1",
			text: "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n[run]\nload_cpus = \"1\"\n",
			err:  `grid.server_cpus[1] = "0-1" overlaps run.load_cpus = "1"; a point's server and the load generator need disjoint CPUs (usable: 0-1), or set run.share_cpus = true`},
		{name: "duplicate set", online: "0-1",
			text: "[grid]\nserver_cpus = [\"0-1\", \"1,0\"]\n[run]\nshare_cpus = true\n",
			err:  `grid.server_cpus[1] = "1,0": duplicate of grid.server_cpus[0] = "0-1"`},
		{name: "shared, one point on every CPU", online: "0-1",
			text: "[grid]\nserver_cpus = [\"0-1\"]\n[run]\nshare_cpus = true\n",
			err:  `grid.server_cpus: every point's server takes every usable CPU (0-1); set run.load_cpus`},
		{name: "not online", online: "0-3",
			text: "[grid]\nserver_cpus = [\"0\", \"5\"]\n",
			err:  `grid.server_cpus[1] = "5": CPU 5 not online; this machine has CPUs 0-3`},
		{name: "empty value", online: "0-3",
			text: "[grid]\nserver_cpus = [\"0\", \"\"]\n",
			err:  `grid.server_cpus[1] = "": a point's server needs at least one CPU`},
		{name: "bad list", online: "0-3",
			text: "[grid]\nserver_cpus = [\"0\", \"1-\"]\n",
			err:  `grid.server_cpus[1] = "1-": want a CPU list such as "0", "2-3" or "0,2"`},
		{name: "with run.server_cpus", online: "0-3",
			text: "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n[run]\nserver_cpus = \"0\"\n",
			err:  `run.server_cpus: not allowed with the axis grid.server_cpus, which places each point's server; set one of them`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withOnline(t, tt.online)
			c, err := Parse("grid.toml", []byte(tt.text))
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), "grid.toml: "+tt.err) {
					t.Fatalf("err = %v\nwant it to start with grid.toml: %s", err, tt.err)
				}
				checkErrorShape(t, "grid.toml", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Run.LoadCPUs.String(); got != tt.load {
				t.Errorf("LoadCPUs = %q, want %q", got, tt.load)
			}
			if got := c.Run.ServerCPUs.String(); got != tt.union {
				t.Errorf("ServerCPUs = %q, want the union %q", got, tt.union)
			}
			got := map[string]string{}
			for _, p := range c.Points {
				got[p[ServerCPUsAxis]] = c.ServerCPUsOf(p).String()
			}
			if !reflect.DeepEqual(got, tt.points) {
				t.Errorf("ServerCPUsOf = %v, want %v", got, tt.points)
			}
		})
	}
}

// TestShareCPUs: with run.share_cpus the servers' CPUs may overlap the
// load CPUs, and SharesCPUs names the sets that do; without it the
// overlap is an error that points to share_cpus.
func TestShareCPUs(t *testing.T) {
	withOnline(t, "0-1")
	c := parse(t, "[grid]\nserver_cpus = [\"0\", \"0-1\"]\n[run]\nshare_cpus = true\n")
	if !c.Run.ShareCPUs {
		t.Error("ShareCPUs = false, want true")
	}
	for _, tt := range []struct {
		set  cpuset.Set
		want bool
	}{{cpuset.Set{0}, false}, {cpuset.Set{0, 1}, true}, {cpuset.Set{1}, true}, {nil, false}} {
		if got := c.SharesCPUs(tt.set); got != tt.want {
			t.Errorf("SharesCPUs(%v) = %v, want %v", tt.set, got, tt.want)
		}
	}
	c = parse(t, "[run]\nserver_cpus = \"0-1\"\nload_cpus = \"1\"\nshare_cpus = true\n")
	if !c.SharesCPUs(c.ServerCPUsOf(c.Baseline)) {
		t.Errorf("run.server_cpus 0-1 beside load 1 with share_cpus: SharesCPUs = false")
	}
	_, err := Parse("grid.toml", []byte("[run]\nserver_cpus = \"0-1\"\nload_cpus = \"1\"\n"))
	want := `grid.toml: run.server_cpus = "0-1" and run.load_cpus = "1" overlap; the server and the load generator need disjoint CPUs (usable: 0-1), or set run.share_cpus = true to let them share (the report flags those cells)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestServerCPUsAxisSettings: the axis is a placement, not a setting: a
// builtin server's settings leave it out, a command target need not use
// it in a template, and its label names it like any axis.
func TestServerCPUsAxisSettings(t *testing.T) {
	withOnline(t, "0-3")
	c := parse(t, "[settings]\ntotal_memories = 100\n[grid]\nserver_cpus = [\"0\", \"0-1\"]\nlinear_memory_keep_resident = [0, \"64KiB\"]\n")
	for _, p := range c.Points {
		s := c.Settings(p)
		if _, ok := s[ServerCPUsAxis]; ok {
			t.Errorf("Settings(%s) = %v has server_cpus", p.Label(), s)
		}
		if s["total_memories"] != "100" || s["linear_memory_keep_resident"] != p["linear_memory_keep_resident"] {
			t.Errorf("Settings(%s) = %v, want [settings] and the point's other axes", p.Label(), s)
		}
	}
	if got := c.Baseline.Label(); got != "linear_memory_keep_resident=0 server_cpus=0" {
		t.Errorf("baseline label %q", got)
	}

	dir := t.TempDir()
	text := "[target]\nkind = \"command\"\ncommand = [\"sh\", \"-c\", \"exec server --port {{port}} --keep {{keep}}\"]\n" +
		"[grid]\nserver_cpus = [\"0\", \"0-1\"]\nkeep = [0, 1]\n"
	cc, err := Parse(filepath.Join(dir, "cmd.toml"), []byte(text))
	if err != nil {
		t.Fatalf("a command target that does not use {{server_cpus}}: %v", err)
	}
	if got := cc.ServerCPUsOf(sweep.Point{ServerCPUsAxis: "0-1", "keep": "0"}).String(); got != "0-1" {
		t.Errorf("command point on 0-1: ServerCPUsOf = %q", got)
	}
}
