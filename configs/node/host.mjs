// host.mjs — a WebAssembly host that is not Wasmtime: Node.js (V8) serving
// HTTP, one fresh instance of a small module per request, as a command
// target for sweep (configs/node-host.toml). It shows how to put your own
// host under sweep: take the port and the settings from the command line,
// answer GET / with 200 once ready.
//
//   node host.mjs PORT TOUCH
//
// TOUCH is the number of bytes of the instance's linear memory each
// request writes (memory.fill), at most 1 MiB (the module's 16 pages).
import http from 'node:http';

const [port, touchArg] = process.argv.slice(2);
const touch = Number(touchArg ?? 0);
if (!Number.isInteger(Number(port)) || !Number.isInteger(touch) || touch < 0 || touch > 1 << 20) {
  console.error('usage: node host.mjs PORT TOUCH (TOUCH: bytes, 0 to 1048576)');
  process.exit(2);
}

// The module, in binary: (memory 16) (func (export "touch") (param i32)
// (memory.fill (i32.const 0) (i32.const 1) (local.get 0))).
const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00, // types: (i32) -> ()
  0x03, 0x02, 0x01, 0x00, // functions: one of type 0
  0x05, 0x03, 0x01, 0x00, 0x10, // memory: min 16 pages
  0x07, 0x09, 0x01, 0x05, 0x74, 0x6f, 0x75, 0x63, 0x68, 0x00, 0x00, // export "touch" = func 0
  0x0a, 0x0d, 0x01, 0x0b, 0x00, // code: one body of 11 bytes, no locals
  0x41, 0x00, 0x41, 0x01, 0x20, 0x00, 0xfc, 0x0b, 0x00, 0x0b, // memory.fill(0, 1, n); end
]);
const module = new WebAssembly.Module(bytes);

const server = http.createServer((req, res) => {
  const instance = new WebAssembly.Instance(module, {});
  instance.exports.touch(touch);
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok\n');
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
