// A wasi:http component that implements incoming-handler by hand (no
// fetch event) and breaks the protocol on purpose, one way per path, for
// the host's tests (sweep/wasmhost/wasihttp_test.go). Build: `make
// http-plugin`.
//
//   /ok            200, "ok" (the baseline)
//   /no-set        returns without setting the response
//   /set-twice     sets the response twice
//   /error-code    sets the outparam to an error code
//   /bad-length    says content-length: 10 and sends 5 bytes
//   /unfinished    sends a chunk and drops the body without finishing it
//   /trap-half     sends a chunk, then throws (a trap) before finishing
//   /spin          sends a chunk, then loops forever (the deadline)
//   /fields        checks the fields functions and answers what it found
//   /body          reads the request body through incoming-body's stream
//                  (read, skip, subscribe) and answers its length and the
//                  trailers' absence
import { Fields, IncomingBody, OutgoingBody, OutgoingResponse, ResponseOutparam } from "wasi:http/types@0.2.10";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// check runs f and returns "ok" or what went wrong (the tag of a
// header-error, or the exception's message).
function check(f) {
  try {
    f();
    return "ok";
  } catch (e) {
    return e.payload?.tag ?? String(e);
  }
}

function fieldsReport(request) {
  const out = {};
  const f = Fields.fromList([["x-a", encoder.encode("1")], ["X-B", encoder.encode("2")]]);
  f.append("x-a", encoder.encode("3"));
  out.get = f.get("X-A").map((v) => decoder.decode(v));
  out.has = [f.has("x-b"), f.has("x-c")];
  f.set("x-b", [encoder.encode("4"), encoder.encode("5")]);
  f.delete("x-a");
  out.entries = f.entries().map(([n, v]) => n + "=" + decoder.decode(v));
  const c = f.clone();
  c.set("x-c", [encoder.encode("6")]);
  out.cloneIndependent = [f.has("x-c"), c.has("x-c")];
  out.badName = check(() => Fields.fromList([["bad name", encoder.encode("v")]]));
  out.badValue = check(() => f.set("x-d", [encoder.encode("a\nb")]));
  const rh = request.headers();
  out.requestHeader = rh.get("x-test").map((v) => decoder.decode(v));
  out.immutable = check(() => rh.set("x-test", [encoder.encode("no")]));
  out.method = request.method().tag;
  out.scheme = request.scheme()?.tag;
  out.authority = request.authority() !== undefined;
  return out;
}

function bodyReport(request) {
  const body = request.consume();
  const stream = body.stream();
  stream.subscribe().block();
  let n = 0;
  const skipped = Number(stream.skip(3n));
  n += skipped;
  for (;;) {
    let chunk;
    try {
      chunk = stream.blockingRead(1000n);
    } catch (e) {
      break; // closed
    }
    n += chunk.length;
  }
  stream[Symbol.dispose]();
  const trailers = IncomingBody.finish(body);
  trailers.subscribe().block();
  const got = trailers.get();
  return { bytes: n, skipped, trailers: got?.val?.val ?? null, second: check(() => request.consume()) };
}

function respond(outparam, headers, chunks, finish) {
  const resp = new OutgoingResponse(Fields.fromList(headers));
  const body = resp.body();
  ResponseOutparam.set(outparam, { tag: "ok", val: resp });
  const out = body.write();
  for (const c of chunks) out.blockingWriteAndFlush(encoder.encode(c));
  out[Symbol.dispose]();
  if (finish) OutgoingBody.finish(body, undefined);
  return body;
}

export const incomingHandler = {
  handle(request, outparam) {
    switch (request.pathWithQuery()) {
      case "/ok":
        respond(outparam, [["content-type", encoder.encode("text/plain")]], ["ok"], true);
        return;
      case "/no-set":
        return;
      case "/set-twice": {
        ResponseOutparam.set(outparam, { tag: "ok", val: new OutgoingResponse(new Fields()) });
        ResponseOutparam.set(outparam, { tag: "ok", val: new OutgoingResponse(new Fields()) });
        return;
      }
      case "/error-code":
        ResponseOutparam.set(outparam, { tag: "err", val: { tag: "internal-error", val: "the guest gave up" } });
        return;
      case "/bad-length":
        respond(outparam, [["content-length", encoder.encode("10")]], ["12345"], true);
        return;
      case "/unfinished":
        respond(outparam, [], ["a chunk"], false)[Symbol.dispose]();
        return;
      case "/trap-half":
        respond(outparam, [], ["first half;"], false);
        throw new Error("the guest failed half-way through its body");
      case "/fields":
        respond(outparam, [["content-type", encoder.encode("application/json")]], [JSON.stringify(fieldsReport(request))], true);
        return;
      case "/body":
        respond(outparam, [["content-type", encoder.encode("application/json")]], [JSON.stringify(bodyReport(request))], true);
        return;
      case "/spin": {
        respond(outparam, [], ["a chunk"], false);
        for (;;) {}
      }
    }
    respond(outparam, [], ["not found"], true);
  },
};
