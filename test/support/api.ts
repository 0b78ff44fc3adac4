/** Plain JSON over HTTP against the emulator for tests (global fetch, real HTTP), independent of the provider's client. */

/** One answered request. */
export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A caller bound to a base URL and a token. */
export type Call = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply<T>>;

/** Returns a caller for `url` acting with `token` (null sends no Authorization header). */
export function caller(url: string, token: string | null): Call {
  return async (method, path, body, headers = {}) => {
    const h: Record<string, string> = { ...headers };
    if (token !== null) h.authorization = `Bearer ${token}`;
    if (body !== undefined && !("content-type" in h)) h["content-type"] = "application/json";
    const res = await fetch(url + path, { method, headers: h, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as never, headers: res.headers };
  };
}

/** Collects every item of a list by following `next.page`. */
export async function listAll<T = any>(call: Call, path: string, limit = 20): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  for (;;) {
    const sep = path.includes("?") ? "&" : "?";
    const r = await call<{ items: T[]; next?: { page: string } }>("GET", `${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ""}`);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    items.push(...r.body.items);
    if (!r.body.next) return items;
    page = r.body.next.page;
  }
}

/** A caller that answers a 2xx reply's parsed body (undefined when empty) and throws `METHOD path: status body` on any other. */
export type Api = <T = any>(method: string, path: string, body?: unknown) => Promise<T>;

/** Returns an {@link Api} acting on an emulator (or any API) at `target.url` with `target.token`. */
export function apiOf(target: { url: string; token: string }): Api {
  const call = caller(target.url, target.token);
  return async (method, path, body) => {
    const r = await call(method, path, body);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${typeof r.body === "string" ? r.body : JSON.stringify(r.body)}`);
    return r.body;
  };
}
