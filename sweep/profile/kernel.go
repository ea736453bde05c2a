package profile

import "strings"

// kernelFamily is the specific family of kernel function name, "" when it
// has none (other kernel). GCC clone suffixes ("finish_task_switch.isra.0")
// are ignored, and a system call entry ("__x64_sys_madvise",
// "__arm64_sys_futex") is looked up by the call's name.
func kernelFamily(name string) string {
	name, _, _ = strings.Cut(name, ".")
	if call, ok := syscallName(name); ok {
		if fam, ok := syscallFamily[call]; ok {
			return fam
		}
		return ""
	}
	if fam, ok := kernelFuncs[name]; ok {
		return fam
	}
	for _, p := range kernelPrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.family
		}
	}
	return ""
}

// syscallName returns the system call that a syscall entry function
// implements.
func syscallName(name string) (string, bool) {
	for _, p := range []string{"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__se_sys_", "__do_sys_", "__sys_", "ksys_"} {
		if call, ok := strings.CutPrefix(name, p); ok {
			return call, true
		}
	}
	return "", false
}

// syscallFamily maps system calls to families. read, write and their
// vector forms are not here: they serve files, pipes and sockets alike, and
// a socket's sock_*/tcp_* frames below the entry name the family.
var syscallFamily = map[string]string{
	"madvise": Madvise, "process_madvise": Madvise, "munmap": Madvise,

	"mmap": Mmap, "mmap_pgoff": Mmap, "mprotect": Mmap, "pkey_mprotect": Mmap,
	"mremap": Mmap, "brk": Mmap,

	"futex": Scheduler, "futex_waitv": Scheduler, "sched_yield": Scheduler,
	"nanosleep": Scheduler, "clock_nanosleep": Scheduler,

	"socket": Network, "bind": Network, "listen": Network, "accept": Network,
	"accept4": Network, "connect": Network, "shutdown": Network,
	"sendto": Network, "recvfrom": Network, "sendmsg": Network, "recvmsg": Network,
	"sendmmsg": Network, "recvmmsg": Network, "getsockopt": Network,
	"setsockopt": Network, "getsockname": Network, "getpeername": Network,
	"epoll_wait": Network, "epoll_pwait": Network, "epoll_pwait2": Network,
	"epoll_ctl": Network, "epoll_create": Network, "epoll_create1": Network,
	"poll": Network, "ppoll": Network, "select": Network, "pselect6": Network,
}

// kernelFuncs maps kernel functions (below the syscall entry, or entered
// by an exception or interrupt) to families.
var kernelFuncs = map[string]string{
	"asm_exc_page_fault": PageFault, "exc_page_fault": PageFault, "do_page_fault": PageFault,
	"page_fault": PageFault, "async_page_fault": PageFault, "do_user_addr_fault": PageFault,
	"do_kern_addr_fault": PageFault, "handle_mm_fault": PageFault,
	"__handle_mm_fault": PageFault, "handle_pte_fault": PageFault,
	"do_anonymous_page": PageFault, "do_fault": PageFault, "do_read_fault": PageFault,
	"do_cow_fault": PageFault, "do_shared_fault": PageFault, "do_wp_page": PageFault,
	"do_swap_page": PageFault, "do_huge_pmd_anonymous_page": PageFault,
	"do_mem_abort": PageFault, "do_translation_fault": PageFault, // arm64

	"do_madvise": Madvise, "vm_munmap": Madvise, "__vm_munmap": Madvise,
	"do_munmap": Madvise, "do_vmi_munmap": Madvise, "do_vmi_align_munmap": Madvise,
	"unmap_region": Madvise, "unmap_vmas": Madvise, "unmap_page_range": Madvise,
	"zap_pte_range": Madvise, "zap_pmd_range": Madvise, "zap_pud_range": Madvise,
	"zap_p4d_range": Madvise,

	"do_mmap": Mmap, "vm_mmap_pgoff": Mmap, "mmap_region": Mmap, "__mmap_region": Mmap,
	"do_mprotect_pkey": Mmap, "mprotect_fixup": Mmap, "change_protection": Mmap,

	"flush_tlb_mm_range": TLB, "flush_tlb_multi": TLB, "native_flush_tlb_multi": TLB,
	"smp_call_function_many_cond": TLB, "flush_tlb_func": TLB,
	"asm_sysvec_call_function": TLB, "sysvec_call_function": TLB,
	"__sysvec_call_function": TLB, "asm_sysvec_call_function_single": TLB,
	"sysvec_call_function_single": TLB, "__sysvec_call_function_single": TLB,

	"schedule": Scheduler, "__schedule": Scheduler, "schedule_idle": Scheduler,
	"context_switch": Scheduler, "__switch_to": Scheduler, "__switch_to_asm": Scheduler,
	"finish_task_switch": Scheduler, "try_to_wake_up": Scheduler,
	"wake_up_q": Scheduler, "wake_up_process": Scheduler, "do_futex": Scheduler,
	"do_sched_yield": Scheduler, "do_nanosleep": Scheduler, "hrtimer_nanosleep": Scheduler,
	"update_curr": Scheduler, "load_balance": Scheduler, "newidle_balance": Scheduler,
	"scheduler_tick": Scheduler, "sched_tick": Scheduler,

	"net_rx_action": Network, "process_backlog": Network, "loopback_xmit": Network,
	"dev_queue_xmit": Network, "__dev_queue_xmit": Network, "dev_hard_start_xmit": Network,
	"do_epoll_wait": Network, "do_epoll_ctl": Network, "do_sys_poll": Network,
	"release_sock": Network, "lock_sock_nested": Network, "__release_sock": Network,
	"kfree_skb": Network, "__kfree_skb": Network, "consume_skb": Network,
}

// kernelPrefixes maps families of kernel functions by name prefix, checked
// in order after kernelFuncs.
var kernelPrefixes = []struct{ prefix, family string }{
	{"madvise_", Madvise},
	{"zap_page_range", Madvise},
	{"futex_", Scheduler},
	{"__futex_", Scheduler},
	{"schedule_", Scheduler},
	{"preempt_schedule", Scheduler},
	{"pick_next_task", Scheduler},
	{"enqueue_task", Scheduler},
	{"dequeue_task", Scheduler},
	{"ttwu_", Scheduler},
	{"select_task_rq", Scheduler},
	{"sched_balance", Scheduler},
	{"tcp_", Network},
	{"__tcp_", Network},
	{"udp", Network},
	{"__udp", Network},
	{"ip_", Network},
	{"__ip_", Network},
	{"ip6_", Network},
	{"ipv6_", Network},
	{"inet_", Network},
	{"__inet_", Network},
	{"inet6_", Network},
	{"sock_", Network},
	{"__sock_", Network},
	{"sk_", Network},
	{"__sk_", Network},
	{"skb_", Network},
	{"__skb_", Network},
	{"__alloc_skb", Network},
	{"__netif_", Network},
	{"netif_", Network},
	{"napi_", Network},
	{"__napi_", Network},
	{"unix_", Network},
	{"security_socket_", Network},
	{"ep_", Network},
}
