// Memory: records with filters, occurrences and ratings, variants and merges, possibly
// stale flags; edit tags, forget (after a confirmation), export.
import { api, download } from "./api.js";
import { ago, fill, h, notice } from "./dom.js";
import { openRecord } from "./viewer.js";

export async function render(root) {
  const form = h("form", { class: "filters", id: "memory-filters", onsubmit: (e) => { e.preventDefault(); offset = 0; load(); } },
    ["language", "framework", "tag", "source"].map((name) => h("label", {}, name, h("input", { name, size: 12 }))),
    h("button", { class: "primary" }, "Filter"),
    h("button", { type: "button", id: "export", onclick: () => download("/api/memory/export", "ctxhub-memory.jsonl").catch((e) => notice(e.message)) }, "Export (JSON Lines)"));
  const list = h("div", { id: "records" });
  root.append(form, list);
  let offset = 0;

  async function load() {
    const params = new URLSearchParams();
    for (const el of form.querySelectorAll("input[name]")) if (el.value.trim()) params.set(el.name, el.value.trim());
    params.set("offset", offset);
    const data = await api(`/api/memory?${params}`);
    const rows = data.records.map((r) => row(r, load));
    fill(list,
      h("p", { class: "muted", id: "memory-total" }, `${data.total} records` + (data.total > data.records.length ? ` (showing ${offset + 1}–${offset + data.records.length})` : "")),
      data.records.length ? h("table", {}, h("thead", {}, h("tr", {}, ["problem", "labels", "tags", "seen", "worked / failed", ""].map((t) => h("th", {}, t)))), h("tbody", {}, rows))
        : h("p", { class: "empty" }, "no records: agents log them with log_solution, or run ctxhub import-github / ctxhub mine"),
      offset > 0 ? h("button", { onclick: () => { offset = Math.max(0, offset - 50); load(); } }, "previous") : null,
      offset + data.records.length < data.total ? h("button", { onclick: () => { offset += 50; load(); } }, "next") : null);
  }
  await load();
  return null;
}

function row(r, reload) {
  const tags = h("span", { class: "tags" }, r.tags.map((t) => h("span", { class: "tag" }, t)));
  const edit = h("button", { type: "button", class: "edit-tags", onclick: async () => {
    const given = window.prompt("Tags, comma-separated:", r.tags.join(", "));
    if (given === null) return;
    try {
      await api(`/api/memory/${encodeURIComponent(r.id)}/tags`, { method: "PUT", body: { tags: given.split(",").map((s) => s.trim()).filter(Boolean) } });
      await reload();
    } catch (err) { notice(err.message); }
  } }, "edit tags");
  const forget = h("button", { type: "button", class: "forget", onclick: async () => {
    if (!window.confirm(`Forget this record and its ratings?\n\n${r.problem.slice(0, 200)}`)) return;
    try {
      await api(`/api/memory/${encodeURIComponent(r.id)}`, { method: "DELETE" });
      notice(`forgot ${r.id}`, "info");
      await reload();
    } catch (err) { notice(err.message); }
  } }, "forget");
  const flags = [
    r.variant_of ? h("div", { class: "muted" }, `variant of ${r.variant_of.slice(0, 8)}`) : null,
    r.merged.length ? h("div", { class: "muted" }, `${r.merged.length} merged in`) : null,
    r.possibly_stale ? h("div", { class: "due", title: r.stale_symbols.join(", ") }, "possibly stale") : null,
  ];
  return h("tr", { "data-id": r.id },
    h("td", {}, h("a", { href: "#memory", onclick: (e) => { e.preventDefault(); openRecord(r.id); } }, r.problem.slice(0, 140)), flags),
    h("td", {}, [r.language, r.framework, r.source].filter(Boolean).join(" · ")),
    h("td", {}, tags, " ", edit),
    h("td", {}, `${r.occurrences}× · ${ago(r.last_seen)}`),
    h("td", {}, `${r.worked} / ${r.not_worked}`),
    h("td", {}, forget));
}
