// A sweep component plugin in JavaScript: it exports sweep:plugin/handler
// (plugins/wit/plugin.wit, world `plugin`) and serves each request the way
// a small JSON API handler would. Every call parses the request and builds
// a fresh response object, so each request allocates on the JS heap as a
// real handler does. Build: `make js-plugin` (see plugins/README.md).
//
// Routes:
//   GET  /             a greeting
//   GET  /health       {"ok":true}
//   ANY  /echo?n=8     the request echoed back: method, path, query,
//                      headers, the body (parsed when the content-type is
//                      JSON) and an array of n items built per request
//                      (n defaults to 8, at most 1000)
//   anything else      404

const JSON_HEADERS = [["content-type", "application/json"]];
const MAX_ITEMS = 1000;
const encoder = new TextEncoder();

function reply(status, value) {
  return [status, JSON_HEADERS, JSON.stringify(value)];
}

// headerMap turns the (lower-case name, value) pairs into an object;
// repeated names are joined with ", " as HTTP allows.
function headerMap(headers) {
  const out = {};
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    out[key] = key in out ? out[key] + ", " + value : value;
  }
  return out;
}

function parseBody(contentType, body, bodyBytes) {
  if (body.length === 0) {
    return { ok: true, value: null };
  }
  const mediaType = (contentType || "").split(";")[0].trim().toLowerCase();
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    try {
      return { ok: true, value: JSON.parse(body) };
    } catch (e) {
      return { ok: false, error: "body is not valid JSON: " + e.message };
    }
  }
  return { ok: true, value: { text_bytes: bodyBytes } };
}

function items(n, seed) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const v = (seed + i * 2654435761) >>> 0;
    out.push({ id: i, name: "item-" + i, value: v % 1000, even: v % 2 === 0 });
  }
  return out;
}

function echo(method, url, headers, body) {
  const hdrs = headerMap(headers);
  const bodyBytes = encoder.encode(body).length;
  const parsed = parseBody(hdrs["content-type"], body, bodyBytes);
  if (!parsed.ok) {
    return reply(400, { error: parsed.error });
  }
  const query = {};
  for (const [k, v] of url.searchParams) {
    query[k] = v;
  }
  let n = Number.parseInt(url.searchParams.get("n") ?? "8", 10);
  if (!Number.isFinite(n) || n < 0) {
    n = 8;
  }
  n = Math.min(n, MAX_ITEMS);
  let seed = bodyBytes;
  for (let i = 0; i < url.pathname.length; i++) {
    seed = (seed * 31 + url.pathname.charCodeAt(i)) >>> 0;
  }
  const list = items(n, seed);
  return reply(200, {
    method,
    path: url.pathname,
    query,
    headers: hdrs,
    header_count: headers.length,
    body: parsed.value,
    body_bytes: bodyBytes,
    items: list,
    total: list.reduce((sum, it) => sum + it.value, 0),
  });
}

export const handler = {
  handle(method, path, headers, body) {
    let url;
    try {
      url = new URL(path, "http://plugin.invalid");
    } catch (e) {
      return reply(400, { error: "bad path: " + path });
    }
    switch (url.pathname) {
      case "/":
        if (method !== "GET" && method !== "HEAD") {
          return reply(405, { error: "method not allowed", method });
        }
        return reply(200, { message: "Hello from JS on a component!" });
      case "/health":
        return reply(200, { ok: true });
      case "/echo":
        return echo(method, url, headers, body);
      default:
        return reply(404, { error: "not found", path: url.pathname });
    }
  },
};
