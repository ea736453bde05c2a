;; noabi: exports neither handle nor _start.
(module (memory (export "memory") 1) (func (export "run")))
