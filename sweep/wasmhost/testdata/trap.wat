;; trap: a core-ABI plugin whose handle always traps.
(module
  (memory (export "memory") 1)
  (func $fail (unreachable))
  (func (export "handle") (param i32 i32) (result i64)
    (call $fail)
    (i64.const 0)))
