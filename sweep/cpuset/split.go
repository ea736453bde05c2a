package cpuset

import (
	"fmt"
	"sort"
)

// Machine is what the default placement needs to know about the CPUs.
type Machine struct {
	// Online are the CPUs the kernel reports online.
	Online Set
	// Usable are the online CPUs this process may run on: its affinity
	// at start, which a cgroup cpuset or `taskset` narrows.
	Usable Set
	// Core names each usable CPU's physical core ("package/core"): CPUs
	// of one core, hyperthread siblings, share its execution units and
	// caches. A CPU missing from Core is a core of its own.
	Core map[int]string
}

// Placement is where sweep's processes run: the servers on Server, the
// driver and its load generator on Load (empty: not pinned). Rule says
// in words how a default placement was chosen.
type Placement struct {
	Server, Load Set
	Rule         string
}

// Split is the default placement on m's usable CPUs:
//   - fewer than 2: nothing is pinned (the server and the load generator
//     cannot be kept apart);
//   - 2 or more cores: the server gets the first half of the cores,
//     rounded down, with all their CPUs, and the load generator the rest,
//     so that no core is shared between them and the generator keeps at
//     least as much as the server (a 2-CPU machine gets 1 + 1, 16 cores
//     8 + 8);
//   - one core with several CPUs: its CPUs are split the same way.
//
// Cores are ordered by their lowest CPU, so on a two-socket machine whose
// sockets number their cores in turn the server gets the first socket.
func Split(m Machine) Placement {
	u := m.Usable
	if len(u) < 2 {
		return Placement{Rule: fmt.Sprintf("%d usable CPU (%s): server and load generator not pinned, sharing it", len(u), u)}
	}
	cores := groupCores(u, m.Core)
	if len(cores) < 2 {
		k := len(u) / 2
		return Placement{Server: u[:k:k], Load: u[k:],
			Rule: fmt.Sprintf("%d usable CPUs on one core: half of them (%d) for the server, the rest for the load generator", len(u), k)}
	}
	k := len(cores) / 2
	var server, load Set
	for i, c := range cores {
		if i < k {
			server = append(server, c...)
		} else {
			load = append(load, c...)
		}
	}
	sort.Ints(server)
	sort.Ints(load)
	rule := fmt.Sprintf("%d usable CPUs on %d cores: half of the cores (%d) for the server, the rest for the load generator", len(u), len(cores), k)
	if len(cores) == len(u) {
		rule = fmt.Sprintf("%d usable CPUs: half of them (%d) for the server, the rest for the load generator", len(u), k)
	}
	return Placement{Server: server, Load: load, Rule: rule}
}

// groupCores groups the CPUs of s by core, in order of each core's lowest
// CPU.
func groupCores(s Set, core map[int]string) [][]int {
	var out [][]int
	index := map[string]int{}
	for _, c := range s { // s is sorted: a core first appears at its lowest CPU
		name, ok := core[c]
		if !ok {
			out = append(out, []int{c})
			continue
		}
		if i, seen := index[name]; seen {
			out[i] = append(out[i], c)
			continue
		}
		index[name] = len(out)
		out = append(out, []int{c})
	}
	return out
}

// Intersect returns the CPUs in both s and t.
func (s Set) Intersect(t Set) Set {
	in := map[int]bool{}
	for _, c := range t {
		in[c] = true
	}
	var out Set
	for _, c := range s {
		if in[c] {
			out = append(out, c)
		}
	}
	return out
}
