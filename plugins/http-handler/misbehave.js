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
import { Fields, OutgoingBody, OutgoingResponse, ResponseOutparam } from "wasi:http/types@0.2.10";

const encoder = new TextEncoder();

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
      case "/spin": {
        respond(outparam, [], ["a chunk"], false);
        for (;;) {}
      }
    }
    respond(outparam, [], ["not found"], true);
  },
};
