// Every /api/ call: the bearer token (asked once, kept in sessionStorage) when the
// server wants one; a JSON error's message becomes the thrown Error's.
const KEY = "ctxhub-token";

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function api(path, { method = "GET", body } = {}) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const headers = {};
    const token = sessionStorage.getItem(KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
    if (method !== "GET") headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    });
    if (response.status === 401 && attempt === 0) {
      const given = window.prompt("This ctxhub needs its bearer token (CTXHUB_TOKEN):");
      if (!given) throw new ApiError(401, "a bearer token is needed");
      sessionStorage.setItem(KEY, given.trim());
      continue;
    }
    const type = response.headers.get("content-type") || "";
    const data = type.includes("json") ? await response.json() : await response.text();
    if (!response.ok) {
      const message = (data && (data.error || data.error_description)) || `HTTP ${response.status}`;
      throw new ApiError(response.status, message);
    }
    return data;
  }
  throw new ApiError(401, "the token was refused");
}

// The export as a file: fetched with the token, then handed to the browser.
export async function download(path, filename) {
  const headers = {};
  const token = sessionStorage.getItem(KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers });
  if (!response.ok) throw new ApiError(response.status, `export failed: HTTP ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  link.click();
  URL.revokeObjectURL(url);
}
