;; loop: a core-ABI plugin whose handle never returns.
(module
  (memory (export "memory") 1)
  (func (export "handle") (param i32 i32) (result i64)
    (loop $forever (br $forever))
    (i64.const 0)))
