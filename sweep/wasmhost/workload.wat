;; workload: the builtin plugin of sweep's Wasmtime host (core-module ABI).
;;
;; Per request it
;;   1. dirties the first `touch` bytes of linear memory, [0, touch), with
;;      memory.fill; the byte value comes from param(4), which differs on
;;      every request. Page 0 holds the data segment, so the first page
;;      written is a copy-on-write image page (or, with memory_init_cow off,
;;      a page Wasmtime copied the segment into);
;;   2. runs `compute` units of integer work: one unit is 1000 dependent
;;      rounds of a 64-bit xorshift-multiply step; the result is kept in a
;;      global and printed into the response, so the loop cannot be removed;
;;   3. sleeps `io_wait` nanoseconds in the host (sweep.io_wait) while the
;;      instance stays live;
;;   4. answers `response_bytes` bytes written at [0, response_bytes): the 16
;;      hex digits of the compute result (truncated if the response is
;;      shorter), then '.', and a final '\n' when it is longer than 16 bytes.
;;
;; So a request dirties exactly the pages of [0, max(touch, response_bytes,
;; request body length)): keep_resident >= touch keeps all of them resident.
;; The request body is placed at 0 too (alloc) and is only counted, not read.
;;
;; This file is a template: the host replaces the PAGES placeholder with
;; the initial memory size, the initial_memory knob (default 17 pages, like
;; a Rust wasm32 module) raised to hold touch and response_bytes, so that
;; serving a request does not grow memory (growing would add mprotect calls
;; to every request); only a larger request body grows it.
(module
  (import "sweep" "param" (func $param (param i32) (result i64)))
  (import "sweep" "io_wait" (func $io_wait (param i64)))

  (memory (export "memory") @PAGES@)
  (data (i32.const 0) "sweep builtin workload plugin: a data segment, so that memory_init_cow has a memory image")

  (global $result (mut i64) (i64.const 0))

  ;; ensure makes [0, end) addressable, growing memory; traps if it cannot.
  (func $ensure (param $end i64)
    (local $pages i64)
    (local.set $pages (i64.shr_u (i64.add (local.get $end) (i64.const 65535)) (i64.const 16)))
    (if (i64.gt_u (local.get $pages) (i64.extend_i32_u (memory.size)))
      (then
        (if (i32.eq
              (memory.grow (i32.wrap_i64 (i64.sub (local.get $pages) (i64.extend_i32_u (memory.size)))))
              (i32.const -1))
          (then unreachable)))))

  (func (export "alloc") (param $len i32) (result i32)
    (call $ensure (i64.extend_i32_u (local.get $len)))
    (i32.const 0))

  (func (export "handle") (param $req i32) (param $len i32) (result i64)
    (local $touch i64) (local $n i64) (local $x i64) (local $wait i64)
    (local $resp i32) (local $i i32) (local $k i32) (local $nib i32)

    ;; 1. touch
    (local.set $touch (call $param (i32.const 0)))
    (local.set $x (call $param (i32.const 4)))
    (if (i64.gt_u (local.get $touch) (i64.const 0))
      (then
        (call $ensure (local.get $touch))
        (memory.fill
          (i32.const 0)
          (i32.or (i32.wrap_i64 (local.get $x)) (i32.const 1))
          (i32.wrap_i64 (local.get $touch)))))

    ;; 2. compute
    (local.set $x (i64.xor
      (i64.xor (local.get $x) (i64.extend_i32_u (local.get $len)))
      (i64.const 0x9E3779B97F4A7C15)))
    (local.set $n (i64.mul (call $param (i32.const 1)) (i64.const 1000)))
    (block $done
      (loop $round
        (br_if $done (i64.eqz (local.get $n)))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 13))))
        (local.set $x (i64.xor (local.get $x) (i64.shr_u (local.get $x) (i64.const 7))))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 17))))
        (local.set $x (i64.mul (local.get $x) (i64.const 0x2545F4914F6CDD1D)))
        (local.set $n (i64.sub (local.get $n) (i64.const 1)))
        (br $round)))
    (global.set $result (local.get $x))

    ;; 3. io_wait
    (local.set $wait (call $param (i32.const 2)))
    (if (i64.gt_s (local.get $wait) (i64.const 0))
      (then (call $io_wait (local.get $wait))))

    ;; 4. response at [0, resp)
    (local.set $resp (i32.wrap_i64 (call $param (i32.const 3))))
    (call $ensure (i64.extend_i32_u (local.get $resp)))
    (memory.fill (i32.const 0) (i32.const 46) (local.get $resp))
    (local.set $k (select (local.get $resp) (i32.const 16) (i32.lt_u (local.get $resp) (i32.const 16))))
    (local.set $i (i32.const 0))
    (block $hexdone
      (loop $hex
        (br_if $hexdone (i32.ge_u (local.get $i) (local.get $k)))
        (local.set $nib
          (i32.wrap_i64 (i64.and
            (i64.shr_u (local.get $x)
              (i64.extend_i32_u (i32.sub (i32.const 60) (i32.shl (local.get $i) (i32.const 2)))))
            (i64.const 15))))
        (i32.store8 (local.get $i)
          (i32.add (local.get $nib)
            (select (i32.const 48) (i32.const 87) (i32.lt_u (local.get $nib) (i32.const 10)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $hex)))
    (if (i32.gt_u (local.get $resp) (i32.const 16))
      (then (i32.store8 (i32.sub (local.get $resp) (i32.const 1)) (i32.const 10))))
    (i64.extend_i32_u (local.get $resp)))
)
