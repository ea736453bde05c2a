// A wasi:http component in JavaScript, service-worker style: componentize-js
// attaches the fetch event to wasi:http/incoming-handler. It serves the
// routes of plugins/js-handler/handler.js with the same code (so the two
// builds are twins: the same logic behind sweep:plugin/handler and behind
// wasi:http), plus routes that exercise the body stream. Build: `make
// http-plugin` (see plugins/README.md).
//
// Routes (besides those of js-handler: /, /health, /echo?n=8, 404):
//   ANY /raw          the request body back as it came, same content-type
//   GET /bytes?n=N    N bytes of "x" (at most 16 MiB)
//   GET /chunks?n=N   N chunks of 1 KiB, streamed
//   GET /throw-stream a stream that errors after its first chunk
//   GET /hang-stream  a stream that sends a chunk and never ends, while a
//                     timer keeps the guest waiting (in wasi:io/poll) for
//                     more: only the request deadline ends it
import { handler } from "../js-handler/handler.js";

const MAX_BYTES = 16 << 20;
const encoder = new TextEncoder();

function size(url, dflt) {
  const n = Number.parseInt(url.searchParams.get("n") ?? String(dflt), 10);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, MAX_BYTES) : dflt;
}

async function respond(req) {
  const url = new URL(req.url);
  switch (url.pathname) {
    case "/raw":
      return new Response(await req.arrayBuffer(), {
        headers: { "content-type": req.headers.get("content-type") ?? "application/octet-stream" },
      });
    case "/bytes":
      return new Response(new Uint8Array(size(url, 64)).fill(120), {
        headers: { "content-type": "application/octet-stream" },
      });
    case "/chunks": {
      let left = size(url, 4);
      return new Response(new ReadableStream({
        pull(ctl) {
          // A new array per chunk: the engine takes each one it writes.
          if (left-- > 0) ctl.enqueue(new Uint8Array(1024).fill(121));
          else ctl.close();
        },
      }));
    }
    case "/throw-stream": {
      let sent = false;
      return new Response(new ReadableStream({
        pull(ctl) {
          if (sent) throw new Error("the stream broke half-way");
          sent = true;
          ctl.enqueue(encoder.encode("first half;"));
        },
      }));
    }
    case "/hang-stream":
      return new Response(new ReadableStream({
        start(ctl) {
          ctl.enqueue(encoder.encode("a chunk that is never followed"));
          setInterval(() => {}, 20);
        },
      }));
  }
  const headers = [];
  for (const [name, value] of req.headers) headers.push([name, value]);
  const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
  const [status, respHeaders, text] = handler.handle(req.method, url.pathname + url.search, headers, body);
  return new Response(text, { status, headers: respHeaders });
}

addEventListener("fetch", (event) => event.respondWith(respond(event.request)));
