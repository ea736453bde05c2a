;; echo: a core-ABI plugin that answers with the request body. alloc places
;; the body at 1024 (memory grows as needed); handle returns it unchanged.
(module
  (memory (export "memory") 1)
  (func (export "alloc") (param $len i32) (result i32)
    (local $need i32)
    (local.set $need (i32.shr_u (i32.add (i32.add (local.get $len) (i32.const 1024)) (i32.const 65535)) (i32.const 16)))
    (if (i32.gt_u (local.get $need) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $need) (memory.size))))))
    (i32.const 1024))
  (func (export "handle") (param $ptr i32) (param $len i32) (result i64)
    (i64.or
      (i64.shl (i64.extend_i32_u (local.get $ptr)) (i64.const 32))
      (i64.extend_i32_u (local.get $len)))))
