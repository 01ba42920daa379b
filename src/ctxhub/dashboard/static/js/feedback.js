// Feedback: the queries agents rated not useful, with the hits they rated and what search
// gives them now (each hit's ratings), and the memory records that keep failing.
import { api } from "./api.js";
import { h } from "./dom.js";
import { openChunk, openRecord } from "./viewer.js";

export async function render(root) {
  const data = await api("/api/feedback");
  const table = (hits) => h("table", {}, h("tbody", {}, hits.map((hit) => h("tr", {},
    h("td", {}, h("a", { href: "#", onclick: (e) => { e.preventDefault(); openChunk(hit.id); } }, hit.symbol || hit.title || hit.path)),
    h("td", { class: "muted" }, `${hit.kind} · ${hit.source}:${hit.path}`),
    h("td", {}, hit.score === null || hit.score === undefined ? "" : `score ${hit.score.toFixed(3)}`),
    h("td", { class: hit.rated_for_query ? "failed" : "" }, hit.rated_for_query ? `rated not useful here ${hit.rated_for_query}×` : ""),
    h("td", {}, `useful ${hit.useful} · not useful ${hit.not_useful}`)))));
  const queries = data.queries.length
    ? data.queries.map((q) => h("div", { class: "hit", "data-query": q.query },
        h("h3", {}, h("a", { href: `#search?q=${encodeURIComponent(q.query)}` }, q.query), h("span", { class: "muted" }, ` · rated not useful ${q.not_useful}×`)),
        h("div", { class: "muted" }, "what agents got and rated not useful:"), table(q.rated),
        h("div", { class: "muted" }, "what search gives it now:"), table(q.hits)))
    : [h("p", { class: "muted", id: "no-unhelpful" }, "no query was rated not useful yet")];
  const failing = data.failing.length
    ? h("table", { id: "failing" }, h("tbody", {}, data.failing.map((r) => h("tr", {},
        h("td", {}, h("a", { href: "#", onclick: (e) => { e.preventDefault(); openRecord(r.id); } }, r.problem)),
        h("td", { class: "failed" }, `failed ${r.not_worked}, worked ${r.worked}`),
        h("td", { class: "muted" }, r.source)))))
    : h("p", { class: "muted" }, "no record keeps failing");
  root.append(h("div", { class: "card" }, h("h2", {}, "Queries rated not useful"), ...queries),
    h("div", { class: "card" }, h("h2", {}, "Records that keep failing"), failing));
  return null;
}
