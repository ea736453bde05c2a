package wasmhost

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/units"
)

// Wasmtime 39's pooling allocator reserves, for every one of total_memories
// slots, the memory reservation plus a guard region, in one contiguous
// mapping (measured here: 1000 slots map 4031.25 GiB). If the mapping
// fails, wasm_engine_new_with_config panics inside Rust and the process
// aborts, so New checks the need against the address space first.
const (
	memoryReservation = 4 * units.GiB
	memoryGuard       = 32 * units.MiB
	tableElementBytes = 8
	pageSize          = 4096
)

// checkAddressSpace refuses pool sizes whose reservations cannot fit in
// the largest free range of this process's virtual address space. Where
// /proc/self/maps is unreadable the check is skipped.
func checkAddressSpace(s *setting.Settings) error {
	free, ok := largestFreeRange()
	if !ok {
		return nil
	}
	memories := countOr(s, setting.TotalMemories)
	memNeed := memories*uint64(memoryReservation+memoryGuard) + uint64(memoryGuard)
	if memNeed > free {
		return fmt.Errorf("total_memories = %d: the memory pool needs %s of contiguous virtual address space (%s per memory), "+
			"but the largest free range in this process is %s; lower total_memories to at most %d",
			memories, approx(memNeed), memoryReservation+memoryGuard, approx(free),
			(free-uint64(memoryGuard))/uint64(memoryReservation+memoryGuard))
	}
	tables := countOr(s, setting.TotalTables)
	elems := countOr(s, setting.TableElements)
	tableNeed := tables * ((elems*tableElementBytes + pageSize - 1) &^ (pageSize - 1))
	if tableNeed > free-memNeed {
		return fmt.Errorf("total_tables = %d with table_elements = %d: the table pool needs %s of virtual address space, "+
			"but only %s is free beside the memory pool", tables, elems, approx(tableNeed), approx(free-memNeed))
	}
	return nil
}

// countOr returns the value of option id in s or its documented default.
func countOr(s *setting.Settings, id setting.ID) uint64 {
	if v, ok := s.Value(id); ok {
		return v
	}
	n, _ := strconv.ParseUint(id.Option().Default, 10, 64)
	return n
}

// largestFreeRange returns the size of the largest gap between mappings
// in /proc/self/maps, up to the top of the user address space.
func largestFreeRange() (uint64, bool) {
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, false
	}
	// mmap without an address hint stays below 2^47 even with 5-level
	// paging; vm.mmap_min_addr is typically 64 KiB.
	const limit = uint64(1) << 47
	var prevEnd, best uint64 = 1 << 16, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Bytes()
		dash := bytes.IndexByte(line, '-')
		sp := bytes.IndexByte(line, ' ')
		if dash < 0 || sp < dash {
			continue
		}
		start, err1 := strconv.ParseUint(string(line[:dash]), 16, 64)
		end, err2 := strconv.ParseUint(string(line[dash+1:sp]), 16, 64)
		if err1 != nil || err2 != nil || start >= limit {
			continue
		}
		if start > prevEnd && start-prevEnd > best {
			best = start - prevEnd
		}
		prevEnd = max(prevEnd, end)
	}
	if prevEnd < limit && limit-prevEnd > best {
		best = limit - prevEnd
	}
	return best, best > 0
}

// approx formats a byte count with one decimal in the largest fitting
// binary unit, e.g. "79.4TiB".
func approx(b uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(b), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + units[i]
}
