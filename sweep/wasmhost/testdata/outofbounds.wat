;; outofbounds: a core-ABI plugin that returns a response past the end of
;; its linear memory.
(module
  (memory (export "memory") 1)
  (func (export "handle") (param i32 i32) (result i64)
    (i64.const 0x0000fff000001000)))
