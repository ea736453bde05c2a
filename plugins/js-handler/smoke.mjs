// A sanity check of the JS plugin's components outside Wasmtime: jco
// transpiles a component to JS + core modules (make js-plugin-check puts
// them in plugins/build/) and node calls handle() on a few requests. The
// real tests run the components on Wasmtime.
//
//   node smoke.mjs ../build/js-handler/handler.js   (relative to this file)
import assert from "node:assert/strict";

const entry = process.argv[2] ?? "../build/js-handler/handler.js";
const mod = await import(new URL(entry, import.meta.url));
const handler = mod.handler ?? mod["sweep:plugin/handler@0.1.0"];
assert.ok(handler && typeof handler.handle === "function", "no handler.handle export");

function call(method, path, headers, body) {
  const [status, respHeaders, respBody] = handler.handle(method, path, headers, body);
  console.log(`${method} ${path} -> ${status} ${JSON.stringify(respHeaders)} ${respBody.length} bytes`);
  return { status, headers: respHeaders, body: respBody };
}

let r = call("GET", "/", [], "");
assert.equal(r.status, 200);
assert.deepEqual(r.headers, [["content-type", "application/json"]]);
assert.equal(JSON.parse(r.body).message, "Hello from JS on a component!");

r = call("POST", "/echo?n=3&tag=x", [["content-type", "application/json"], ["x-a", "1"], ["x-a", "2"]], '{"k":[1,2]}');
assert.equal(r.status, 200);
let v = JSON.parse(r.body);
console.log("  " + r.body);
assert.equal(v.method, "POST");
assert.equal(v.path, "/echo");
assert.deepEqual(v.query, { n: "3", tag: "x" });
assert.equal(v.headers["x-a"], "1, 2");
assert.deepEqual(v.body, { k: [1, 2] });
assert.equal(v.items.length, 3);

r = call("PUT", "/echo", [["content-type", "text/plain"]], "héllo");
assert.equal(r.status, 200);
v = JSON.parse(r.body);
assert.deepEqual(v.body, { text_bytes: 6 });
assert.equal(v.body_bytes, 6);
assert.equal(v.items.length, 8);

r = call("POST", "/echo", [["content-type", "application/json; charset=utf-8"]], "{not json");
assert.equal(r.status, 400);

r = call("GET", "/echo?n=5000", [], "");
assert.equal(JSON.parse(r.body).items.length, 1000);

r = call("GET", "/health", [], "");
assert.equal(r.body, '{"ok":true}');

r = call("DELETE", "/", [], "");
assert.equal(r.status, 405);

r = call("GET", "/nope?x=1", [], "");
assert.equal(r.status, 404);
assert.deepEqual(JSON.parse(r.body), { error: "not found", path: "/nope" });

// Many calls on one instance (the host makes a fresh instance per request;
// this only checks that nothing breaks across calls).
const calls = 100;
const t0 = performance.now();
for (let i = 0; i < calls; i++) {
  r = handler.handle("POST", "/echo?n=16", [["content-type", "application/json"]], '{"i":' + i + "}");
  assert.equal(r[0], 200);
}
console.log(`${calls} calls on one instance: ${((performance.now() - t0) / calls * 1000).toFixed(1)} µs/call`);
console.log("ok " + entry);
