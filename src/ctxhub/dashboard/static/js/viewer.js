// The dialog that opens a chunk (its full text, where it comes from, its ratings), or a
// tool's answer (a doc page, a snippet, an example).
import { api } from "./api.js";
import { fill, h, notice } from "./dom.js";

function open(...children) {
  const dialog = document.getElementById("viewer");
  fill(document.getElementById("viewer-body"), ...children);
  if (!dialog.open) dialog.showModal();
}

export async function openChunk(id) {
  try {
    const c = await api(`/api/chunks/${encodeURIComponent(id)}`);
    const where = `${c.source}:${c.path}` + (c.line_start ? `:${c.line_start}-${c.line_end}` : "");
    open(
      h("h2", { id: "viewer-title" }, c.symbol || c.title || c.path),
      h("p", { class: "muted" }, `${c.kind} · ${where}` + (c.version ? ` · ${c.version}` : "")),
      c.url ? h("p", {}, h("a", { href: c.url, target: "_blank", rel: "noopener" }, c.url)) : null,
      h("p", { class: "muted" }, `rated useful ${c.useful}, not useful ${c.not_useful} · id ${c.id}`),
      h("pre", { id: "viewer-content" }, c.content),
    );
  } catch (err) {
    notice(err.message);
  }
}

export async function openTool(tool, args, title) {
  try {
    const answer = await api("/api/call", { method: "POST", body: { tool, args } });
    open(h("h2", {}, title), h("pre", {}, answer.text));
  } catch (err) {
    notice(err.message);
  }
}

export async function openRecord(id) {
  try {
    const r = await api(`/api/memory/${encodeURIComponent(id)}`);
    open(
      h("h2", { id: "viewer-title" }, r.problem.slice(0, 160)),
      h("p", { class: "muted" }, `${r.source} · ${r.language || "any language"} · seen ${r.occurrences}× · worked ${r.worked}, failed ${r.not_worked}`),
      h("h3", {}, "Solution"), h("pre", {}, r.solution || "(none)"),
      r.code_snippet ? h("pre", {}, r.code_snippet) : null,
      r.variant_of ? h("p", {}, `variant of ${r.variant_of}`) : null,
      r.variants.length ? h("p", {}, `variants: ${r.variants.map((v) => v.id).join(", ")}`) : null,
      r.merged.length ? h("p", {}, `merged into it: ${r.merged.join(", ")}`) : null,
      r.possibly_stale ? h("p", { class: "due" }, `possibly stale: ${r.stale_symbols.join(", ")} changed`) : null,
    );
  } catch (err) {
    notice(err.message);
  }
}
