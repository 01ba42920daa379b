// Search playground: any search tool, its filters built from the tool's argument schema;
// each hit with the rank every path gave it, each re-rank multiplier and the confidence.
import { api } from "./api.js";
import { h, notice } from "./dom.js";
import { openChunk, openRecord, openTool } from "./viewer.js";

const SKIP = new Set(["max_tokens", "cursor"]);

function fieldType(prop) {
  const options = prop.anyOf ? prop.anyOf.filter((p) => p.type !== "null") : [prop];
  return options[0] || {};
}

function input(name, prop) {
  const t = fieldType(prop);
  const enumValues = t.enum || (t.items && t.items.enum);
  let el;
  if (t.type === "boolean") {
    el = h("select", { name }, h("option", { value: "" }, "any"), h("option", { value: "true" }, "yes"), h("option", { value: "false" }, "no"));
  } else if (enumValues && t.type !== "array") {
    el = h("select", { name }, h("option", { value: "" }, "any"), enumValues.map((v) => h("option", { value: v }, v)));
  } else {
    el = h("input", {
      name, type: t.type === "integer" ? "number" : "text", size: name === "query" || name === "problem" ? 40 : 14,
      placeholder: t.type === "array" ? (enumValues ? enumValues.join(",") : "a, b") : "",
      value: prop.default !== undefined && prop.default !== null && t.type === "integer" ? prop.default : null,
    });
  }
  el.dataset.kind = t.type || "string";
  return h("label", {}, name, el);
}

function readForm(form) {
  const args = {};
  for (const el of form.querySelectorAll("[name]")) {
    const v = el.value.trim();
    if (!v) continue;
    const kind = el.dataset.kind;
    args[el.name] = kind === "integer" ? Number(v) : kind === "boolean" ? v === "true" : kind === "array" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v;
  }
  return args;
}

export async function render(root) {
  const { tools } = await api("/api/tools");
  const select = h("select", { id: "tool" }, tools.map((t) => h("option", { value: t.name }, t.name)));
  const fields = h("div", { class: "filters", style: "display:contents" });
  const results = h("div", { id: "results" });
  const form = h("form", { class: "filters", id: "search-form", onsubmit: (e) => { e.preventDefault(); run(); } },
    h("label", {}, "tool", select), fields, h("button", { class: "primary", type: "submit" }, "Search"));
  function drawFields() {
    const tool = tools.find((t) => t.name === select.value);
    const props = tool.schema.properties;
    fields.replaceChildren(...Object.keys(props).filter((n) => !SKIP.has(n)).map((n) => input(n, props[n])));
  }
  select.addEventListener("change", drawFields);
  drawFields();
  const wanted = new URLSearchParams(location.hash.split("?")[1] || "");
  if (wanted.get("q")) form.querySelector("[name=query]").value = wanted.get("q");
  root.append(form, results);

  async function run() {
    const tool = select.value;
    const args = readForm(form);
    try {
      const answer = await api("/api/call", { method: "POST", body: { tool, args } });
      results.replaceChildren(...showResponse(answer.data, args.query || args.problem || args.approach || ""));
    } catch (err) {
      notice(err.message);
    }
  }
  if (wanted.get("q")) run();
}

function showResponse(data, query) {
  const hits = data.hits || [];
  const head = h("p", { id: "confidence" },
    `confidence ${Number(data.confidence ?? 0).toFixed(2)}`,
    data.low_confidence || data.nothing_relevant ? h("strong", { class: "due" }, " · low confidence") : null,
    data.total !== undefined && data.total !== null ? ` · ${data.total} in the filtered set` : "",
    data.weights ? ` · weights ${Object.entries(data.weights).map(([k, v]) => `${k} ${v}`).join(", ")}` : "",
    data.notice ? h("div", { class: "muted" }, data.notice) : null,
    data.message ? h("div", { class: "muted" }, data.message) : null);
  const nearest = data.nearest || [];
  if (!hits.length && nearest.length) {
    return [head, h("p", { class: "muted" }, "nothing relevant; the nearest records:"), ...nearest.map((hit, i) => showHit(hit, i + 1, query))];
  }
  if (!hits.length) return [head, h("p", { class: "empty" }, "no hits")];
  return [head, ...hits.map((hit, i) => showHit(hit, i + 1, query))];
}

function showHit(hit, position, query) {
  const where = hit.path ? `${hit.source}:${hit.path}` + (hit.line_start ? `:${hit.line_start}-${hit.line_end}` : "") : hit.source;
  const signals = Object.entries(hit.signals || {}).map(([path, s]) => h("span", { class: "signal", "data-path": path }, `${path} #${s.rank}`));
  // knowledge hits: the re-rankers' `boosts`; memory hits: their `multipliers`
  const factors = { ...((hit.metadata || {}).boosts || {}), ...((hit.metadata || {}).multipliers || {}) };
  const boosts = Object.entries(factors).map(([name, f]) => h("span", { class: "boost" }, `${name} ×${f}`));
  const counts = h("span", { class: "ratings muted" });
  const rate = (worked) => async () => {
    try {
      const r = await api("/api/rate", { method: "POST", body: { id: hit.id, worked, query } });
      counts.textContent = ` ${r.message}`;
    } catch (err) {
      notice(err.message);
    }
  };
  const memory = hit.kind === "memory";
  const opener = memory ? null
    : hit.kind === "doc" ? h("button", { type: "button", onclick: () => openTool("get_doc", { doc_id: hit.id }, hit.title || hit.path) }, "doc page")
    : hit.kind === "example" ? h("button", { type: "button", onclick: () => openTool("get_example", { example_id: hit.id }, hit.title || hit.path) }, "example")
    : h("button", { type: "button", onclick: () => openTool("get_code_snippet", { chunk_id: hit.id }, hit.symbol || hit.path) }, "snippet");
  return h("div", { class: "hit", "data-id": hit.id },
    h("h3", {}, `${position}. `, h("a", { href: "#", class: "open", onclick: (e) => { e.preventDefault(); (memory ? openRecord : openChunk)(hit.id); } }, hit.symbol || hit.title || hit.path)),
    h("div", { class: "muted" }, `${hit.kind} · ${where}` + (hit.version ? ` · ${hit.version}` : "")),
    h("div", { class: "explain" },
      h("span", { class: "score" }, hit.score === null || hit.score === undefined ? "listed" : `score ${Number(hit.score).toFixed(3)}`),
      signals.length ? signals : h("span", {}, "no path ranks"), boosts),
    h("pre", {}, hit.snippet),
    h("div", {}, opener, " ",
      h("button", { type: "button", class: "useful", onclick: rate(true) }, memory ? "worked" : "useful"), " ",
      h("button", { type: "button", class: "not-useful", onclick: rate(false) }, memory ? "did not work" : "not useful"),
      counts));
}
