;; http-outgoing-component: a wasi:http component that imports
;; wasi:sockets and wasi:keyvalue, which the host's wasi:http does not
;; provide; the host must refuse it at load naming exactly those.
(component
  (import "wasi:http/types@0.2.0" (instance))
  (import "wasi:http/outgoing-handler@0.2.0" (instance))
  (import "wasi:sockets/tcp@0.2.0" (instance))
  (import "wasi:keyvalue/store@0.2.0" (instance))
  (instance $i)
  (export "wasi:http/incoming-handler@0.2.0" (instance $i))
)
