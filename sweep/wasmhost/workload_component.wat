;; workload_component: the component twin of the builtin workload plugin.
;;
;; The same core code as workload.wat (the host puts that module, with its
;; PAGES filled in, where WORKLOAD stands below) behind the component
;; interface sweep:plugin/handler of plugins/wit/plugin.wit, with the
;; knobs and the wait imported from sweep:plugin/host. A request therefore
;; does what the core workload does, plus what a component adds: a
;; component instance and its context, a second (glue) core instance, the
;; canonical ABI lowering the request strings into linear memory and
;; lifting the response string out of it (UTF-8 checked).
;;
;; Like the core ABI's alloc, realloc places every lowered value at
;; address 0 (the core workload receives its body there too): the request
;; is never read, only its body length counts, so the bytes dirtied per
;; request are those of the core workload plus the request strings and the
;; 20-byte result record, written just after the response.
(component
  (import "sweep:plugin/host@0.1.0" (instance $host
    (export "param" (func (param "id" s32) (result s64)))
    (export "io-wait" (func (param "ns" s64)))))

  @WORKLOAD@

  (core module $glue
    (import "w" "memory" (memory 1))
    (import "w" "alloc" (func $alloc (param i32) (result i32)))
    (import "w" "handle" (func $handle (param i32 i32) (result i64)))
    ;; realloc(old, old_size, align, size): [0, size), grown if need be.
    (func (export "realloc") (param i32 i32 i32) (param $size i32) (result i32)
      (drop (call $alloc (local.get $size)))
      (i32.const 0))
    ;; handle(method, path, headers, body as (ptr, len) pairs) returns the
    ;; address of (status u16, headers list, body string).
    (func (export "handle") (param i32 i32 i32 i32 i32 i32) (param $body i32) (param $body_len i32) (result i32)
      (local $r i64) (local $len i32) (local $at i32)
      (local.set $r (call $handle (local.get $body) (local.get $body_len)))
      (local.set $len (i32.wrap_i64 (local.get $r)))
      (local.set $at (i32.and (i32.add (local.get $len) (i32.const 3)) (i32.const -4)))
      (drop (call $alloc (i32.add (local.get $at) (i32.const 20))))
      (i32.store16 (local.get $at) (i32.const 200))
      (i32.store offset=4 (local.get $at) (i32.const 0))
      (i32.store offset=8 (local.get $at) (i32.const 0))
      (i32.store offset=12 (local.get $at) (i32.wrap_i64 (i64.shr_u (local.get $r) (i64.const 32))))
      (i32.store offset=16 (local.get $at) (local.get $len))
      (local.get $at)))

  (core func $param (canon lower (func $host "param")))
  (core func $io_wait (canon lower (func $host "io-wait")))
  (core instance $w (instantiate $workload
    (with "sweep" (instance (export "param" (func $param)) (export "io_wait" (func $io_wait))))))
  (core instance $g (instantiate $glue (with "w" (instance $w))))

  (func $handle
    (param "method" string) (param "path" string)
    (param "headers" (list (tuple string string))) (param "body" string)
    (result (tuple u16 (list (tuple string string)) string))
    (canon lift (core func $g "handle") (memory $w "memory") (realloc (func $g "realloc"))))
  (instance $handler (export "handle" (func $handle)))
  (export "sweep:plugin/handler@0.1.0" (instance $handler))
)
