package profile

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// stack builds a leaf-first stack from "k:name" (kernel) and
// "name@dso" (user; the DSO defaults to the server binary) frames.
func stack(frames ...string) []Frame {
	out := make([]Frame, len(frames))
	for i, s := range frames {
		if name, ok := strings.CutPrefix(s, "k:"); ok {
			out[i] = Frame{Addr: 0xffffffff81000000 + uint64(i), Func: name, DSO: "[kernel.kallsyms]"}
			continue
		}
		name, dso, ok := strings.Cut(s, "@")
		if !ok {
			dso = "/usr/bin/server"
		}
		out[i] = Frame{Addr: 0x1000 + uint64(i), Func: name, DSO: dso}
	}
	return out
}

func TestClassify(t *testing.T) {
	goMain := []string{"main.main", "runtime.main", "runtime.goexit.abi0"}
	cgo := []string{"runtime.asmcgocall.abi0", "runtime.cgocall", "github.com/bytecodealliance/wasmtime-go/v39.(*Store).Close", "main.handle", "runtime.goexit.abi0"}
	for _, tc := range []struct {
		name  string
		stack []Frame
		want  string
	}{
		{"anonymous page fault", stack(append([]string{"k:native_set_pte", "k:set_ptes.isra.0", "k:do_anonymous_page", "k:__handle_mm_fault", "k:handle_mm_fault", "k:exc_page_fault", "k:asm_exc_page_fault"}, goMain...)...), PageFault},
		{"madvise freeing pages", stack(append([]string{"k:free_unref_folios", "k:tlb_finish_mmu", "k:do_madvise", "k:__x64_sys_madvise", "k:do_syscall_64", "k:entry_SYSCALL_64_after_hwframe", "internal/runtime/syscall/linux.Syscall6", "syscall.Madvise"}, goMain...)...), Madvise},
		{"madvise TLB flush is madvise", stack("k:smp_call_function_many_cond", "k:native_flush_tlb_multi", "k:flush_tlb_mm_range", "k:zap_page_range_single", "k:madvise_vma_behavior", "k:do_madvise", "k:__x64_sys_madvise", "k:do_syscall_64", "k:entry_SYSCALL_64_after_hwframe"), Madvise},
		{"munmap", stack("k:unmap_page_range", "k:unmap_vmas", "k:unmap_region", "k:do_vmi_align_munmap", "k:__vm_munmap", "k:__x64_sys_munmap", "k:do_syscall_64"), Madvise},
		{"mprotect", stack("k:change_protection", "k:mprotect_fixup", "k:do_mprotect_pkey", "k:__x64_sys_mprotect", "k:do_syscall_64", "wasmtime::runtime::vm::mmap::Mmap::make_accessible"), Mmap},
		{"TLB flush IPI received in user code", stack("k:flush_tlb_func", "k:__flush_smp_call_function_queue", "k:__sysvec_call_function", "k:sysvec_call_function", "k:asm_sysvec_call_function", "main.work", "runtime.goexit.abi0"), TLB},
		{"futex wait", stack("k:finish_task_switch.isra.0", "k:__schedule", "k:schedule", "k:futex_wait_queue", "k:futex_wait", "k:do_futex", "k:__x64_sys_futex", "k:do_syscall_64", "runtime.futex.abi0", "runtime.futexsleep"), Scheduler},
		{"preempted on return to user", stack("k:__schedule", "k:schedule", "k:exit_to_user_mode_loop", "k:syscall_exit_to_user_mode", "k:do_syscall_64"), Scheduler},
		{"tcp sendmsg", stack("k:copy_user_enhanced_fast_string", "k:skb_do_copy_data_nocache", "k:tcp_sendmsg_locked", "k:tcp_sendmsg", "k:sock_write_iter", "k:vfs_write", "k:ksys_write", "k:__x64_sys_write", "k:do_syscall_64", "syscall.write"), Network},
		{"page fault inside recvfrom is network", stack("k:handle_mm_fault", "k:exc_page_fault", "k:asm_exc_page_fault", "k:_copy_to_iter", "k:tcp_recvmsg", "k:__sys_recvfrom", "k:__x64_sys_recvfrom", "k:do_syscall_64"), Network},
		{"loopback softirq wakes the scheduler", stack("k:try_to_wake_up", "k:__wake_up_common", "k:sock_def_readable", "k:tcp_rcv_established", "k:ip_local_deliver", "k:__netif_receive_skb", "k:process_backlog", "k:net_rx_action", "k:handle_softirqs"), Network},
		{"epoll wait", stack("k:__schedule", "k:schedule", "k:schedule_hrtimeout_range", "k:do_epoll_wait", "k:__x64_sys_epoll_pwait", "k:do_syscall_64", "runtime.netpoll"), Network},
		{"timer interrupt", stack("k:update_process_times", "k:tick_nohz_handler", "k:__hrtimer_run_queues", "k:hrtimer_interrupt", "k:__sysvec_apic_timer_interrupt", "k:asm_sysvec_apic_timer_interrupt", "main.work"), OtherKernel},
		{"read of a file", stack("k:filemap_read", "k:vfs_read", "k:ksys_read", "k:__x64_sys_read", "k:do_syscall_64", "syscall.read"), OtherKernel},
		{"kernel address with unknown dso", []Frame{{0xffffffffc0a01000, unknown, unknown}}, OtherKernel},
		{"wasmtime leaf", stack(append([]string{"wasmtime::runtime::vm::instance::allocator::pooling::PoolingInstanceAllocator::deallocate_memory", "wasmtime_store_delete"}, cgo...)...), Wasmtime},
		{"malloc called by wasmtime", stack(append([]string{"_int_malloc@/usr/lib/x86_64-linux-gnu/libc.so.6", "malloc@/usr/lib/x86_64-linux-gnu/libc.so.6", "alloc::raw_vec::RawVec<T,A>::grow_one", "wasmtime::runtime::vm::instance::Instance::new"}, cgo...)...), Wasmtime},
		{"memset called by wasmtime", stack(append([]string{"__memset_avx2_unaligned_erms@/usr/lib/x86_64-linux-gnu/libc.so.6", "core::ptr::drop_in_place<wasmtime::Store>", "wasmtime::runtime::vm::memory::Memory::reset"}, cgo...)...), MemOps},
		{"memset with its caller lost", stack("__memset_avx2_unaligned_erms@/usr/lib/x86_64-linux-gnu/libc.so.6", "[unknown]@[unknown]"), MemOps},
		{"memcpy", stack("memcpy@/usr/lib/libc.so.6", "main.f"), MemOps},
		{"unsymbolized JIT code under a trampoline", stack(append([]string{"[unknown]@[unknown]", "[unknown]@//anon", "wasmtime_internal_cranelift::array_to_wasm_trampoline"}, cgo...)...), Wasmtime},
		{"JIT code in a perf map", stack("wasm[0]::function[3]@/tmp/perf-1234.map", "[unknown]@[unknown]"), Wasmtime},
		{"C API call", stack(append([]string{"wasm_instance_new@/usr/lib/libwasmtime.so"}, cgo...)...), Wasmtime},
		{"Go wrapper of wasmtime", stack(cgo[2:]...), Wasmtime},
		{"GC", stack("runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker.func2", "runtime.systemstack.abi0"), GoRuntime},
		{"malloc from Go code", stack("runtime.mallocgc", "net/http.(*conn).serve", "runtime.goexit.abi0"), GoRuntime},
		{"Go's memmove", stack("runtime.memmove", "main.f"), GoRuntime},
		{"cgo glue", stack("_cgo_topofstack", "crosscall2"), GoRuntime},
		{"Go application code", stack(goMain...), OtherUser},
		{"generic Go code", stack("main.Map[go.shape.int]", "runtime.goexit.abi0"), OtherUser},
		{"Go closure in a module", stack("github.com/sweep-dev/sweep/sweep/wasmhost.(*Host).serve.func1", "runtime.goexit.abi0"), OtherUser},
		{"libc only", stack("__libc_start_main@/usr/lib/libc.so.6", "_start"), OtherUser},
		{"gcc clone is not Go", stack("helper.part.0@/usr/lib/libfoo.so", "runtime.cgocall"), GoRuntime},
		{"unknown only", stack("[unknown]@[unknown]"), OtherUser},
		{"empty stack", nil, OtherUser},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Classify(tc.stack); got != tc.want {
				t.Errorf("Classify(%v) = %q, want %q", tc.stack, got, tc.want)
			}
		})
	}
}

func TestKernelFamily(t *testing.T) {
	for name, want := range map[string]string{
		"__arm64_sys_madvise": Madvise, "__x64_sys_mmap": Mmap, "ksys_mmap_pgoff": Mmap,
		"__x64_sys_sched_yield": Scheduler, "__sys_sendto": Network, "__x64_sys_read": "",
		"zap_page_range_single": Madvise, "dequeue_task_fair": Scheduler, "finish_task_switch.isra.0": Scheduler,
		"tcp_v4_rcv": Network, "ep_poll": Network, "clear_page_erms": "", "do_syscall_64": "",
	} {
		if got := kernelFamily(name); got != want {
			t.Errorf("kernelFamily(%q) = %q, want %q", name, got, want)
		}
	}
}

// testProfile builds a profile with one sample per stack, each of cpu ns.
func testProfile(cpu int64, stacks ...[]Frame) *profile.Profile {
	b := newBuilder(1)
	for _, s := range stacks {
		_ = b.add(&ScriptSample{Comm: "server", PID: 1, TID: 1, Period: cpu, Stack: s})
	}
	return b.finish()
}

func TestFamilies(t *testing.T) {
	fault := stack("k:do_anonymous_page", "k:asm_exc_page_fault", "main.main")
	madv := stack("k:do_madvise", "k:__x64_sys_madvise", "syscall.Madvise")
	gc := stack("runtime.scanobject", "runtime.gcDrain")
	p := testProfile(1000000, fault, fault, fault, madv, madv, gc, stack("main.main"), stack("main.f"))
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	got := Families(p)
	want := []Family{
		{PageFault, 3, 3 * time.Millisecond, 3.0 / 8},
		{Madvise, 2, 2 * time.Millisecond, 2.0 / 8},
		{OtherUser, 2, 2 * time.Millisecond, 2.0 / 8},
		{GoRuntime, 1, time.Millisecond, 1.0 / 8},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Families:\n got %+v\nwant %+v", got, want)
	}

	// Without cpu values, shares are by samples.
	p.SampleType = p.SampleType[:1]
	for _, s := range p.Sample {
		s.Value = s.Value[:1]
	}
	got = Families(p)
	if got[0].Name != PageFault || got[0].CPU != 0 || got[0].Share != 3.0/8 {
		t.Errorf("Families without cpu: got %+v, want page fault first with share 3/8 and no CPU", got[0])
	}
	if fams := Families(&profile.Profile{}); len(fams) != 0 {
		t.Errorf("Families(empty) = %+v, want none", fams)
	}
}
