;; echo-component: a sweep:plugin/handler component for the host's tests.
;; handle answers 201 with the header x-echo: yes and the body
;; "METHOD PATH HEADERS|BODY", where HEADERS is the number of request
;; headers as one decimal digit (mod 10). A body starting with "trap"
;; traps; one starting with "loop" loops until the request deadline. The
;; module also has a table, so that max_tables_per_component bites.
(component
  (core module $m
    (memory (export "memory") 1)
    (table 1 funcref)
    (data (i32.const 16) "x-echoyes")
    (global $heap (mut i32) (i32.const 1024))
    (func (export "realloc") (param i32 i32) (param $align i32) (param $size i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $heap) (i32.const 7)) (i32.const -8)))
      (global.set $heap (i32.add (local.get $p) (local.get $size)))
      (if (i32.gt_u (global.get $heap) (i32.shl (memory.size) (i32.const 16)))
        (then (if (i32.eq (memory.grow (i32.add (i32.shr_u (i32.sub (global.get $heap) (i32.shl (memory.size) (i32.const 16))) (i32.const 16)) (i32.const 1))) (i32.const -1)) (then unreachable))))
      (local.get $p))
    (func $copy (param $dst i32) (param $src i32) (param $n i32) (result i32)
      (memory.copy (local.get $dst) (local.get $src) (local.get $n))
      (i32.add (local.get $dst) (local.get $n)))
    (func (export "handle")
      (param $m i32) (param $ml i32) (param $p i32) (param $pl i32)
      (param $h i32) (param $hl i32) (param $b i32) (param $bl i32) (result i32)
      (local $out i32) (local $at i32) (local $r i32)
      (if (i32.ge_u (local.get $bl) (i32.const 4))
        (then
          (if (i32.eq (i32.load (local.get $b)) (i32.const 0x70617274)) ;; "trap"
            (then unreachable))
          (if (i32.eq (i32.load (local.get $b)) (i32.const 0x706f6f6c)) ;; "loop"
            (then (loop $forever (br $forever))))))
      (local.set $out (call 0 (i32.const 0) (i32.const 0) (i32.const 1)
        (i32.add (i32.add (local.get $ml) (local.get $pl)) (i32.add (local.get $bl) (i32.const 4)))))
      (local.set $at (call $copy (local.get $out) (local.get $m) (local.get $ml)))
      (i32.store8 (local.get $at) (i32.const 32))
      (local.set $at (call $copy (i32.add (local.get $at) (i32.const 1)) (local.get $p) (local.get $pl)))
      (i32.store8 (local.get $at) (i32.const 32))
      (i32.store8 offset=1 (local.get $at) (i32.add (i32.const 48) (i32.rem_u (local.get $hl) (i32.const 10))))
      (i32.store8 offset=2 (local.get $at) (i32.const 124))
      (local.set $at (call $copy (i32.add (local.get $at) (i32.const 3)) (local.get $b) (local.get $bl)))
      ;; one header: (name, value) at 32
      (i32.store offset=32 (i32.const 0) (i32.const 16))
      (i32.store offset=36 (i32.const 0) (i32.const 6))
      (i32.store offset=40 (i32.const 0) (i32.const 22))
      (i32.store offset=44 (i32.const 0) (i32.const 3))
      ;; the result tuple at 64
      (i32.store16 offset=64 (i32.const 0) (i32.const 201))
      (i32.store offset=68 (i32.const 0) (i32.const 32))
      (i32.store offset=72 (i32.const 0) (i32.const 1))
      (i32.store offset=76 (i32.const 0) (local.get $out))
      (i32.store offset=80 (i32.const 0) (i32.sub (local.get $at) (local.get $out)))
      (i32.const 64)))
  (core instance $i (instantiate $m))
  (func $handle
    (param "method" string) (param "path" string)
    (param "headers" (list (tuple string string))) (param "body" string)
    (result (tuple u16 (list (tuple string string)) string))
    (canon lift (core func $i "handle") (memory $i "memory") (realloc (func $i "realloc"))))
  (instance $handler (export "handle" (func $handle)))
  (export "sweep:plugin/handler@0.1.0" (instance $handler))
)
