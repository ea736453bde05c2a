package cpuset

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ThisMachine reads this machine's CPUs: the online ones
// (/sys/devices/system/cpu/online), the ones of them this process may
// run on (its affinity, /proc/self/status) and each one's core
// (/sys/devices/system/cpu/cpuN/topology). A CPU whose topology cannot
// be read is a core of its own.
func ThisMachine() (Machine, error) {
	online, err := Online()
	if err != nil {
		return Machine{}, err
	}
	allowed, err := Allowed(0)
	if err != nil {
		return Machine{}, err
	}
	m := Machine{Online: online, Usable: online.Intersect(allowed), Core: map[int]string{}}
	for _, c := range m.Usable {
		if name, ok := coreOf(c); ok {
			m.Core[c] = name
		}
	}
	return m, nil
}

// coreOf names CPU c's physical core as "package/core".
func coreOf(c int) (string, bool) {
	dir := "/sys/devices/system/cpu/cpu" + strconv.Itoa(c) + "/topology/"
	read := func(f string) (string, bool) {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
	pkg, ok1 := read("physical_package_id")
	core, ok2 := read("core_id")
	if !ok1 || !ok2 {
		return "", false
	}
	return fmt.Sprintf("%s/%s", pkg, core), true
}
