// Overview: every source, the store and the model, memory in numbers; a refresh button
// per source whose progress is polled from /api/jobs/ID.
import { api } from "./api.js";
import { ago, bytes, fill, h, notice } from "./dom.js";

export async function render(root) {
  let timer = null;
  async function draw() {
    const data = await api("/api/overview");
    const running = data.jobs.filter((j) => j.state === "running");
    fill(root,
      data.empty ? h("div", { class: "card empty", id: "empty-message" }, data.empty_message) : null,
      h("div", { class: "cards" },
        card("chunks", data.chunks, `${data.embedded} embedded` + (data.lookup_only ? ` · ${data.lookup_only} lookup-only` : "")),
        card("sources", data.sources.length, ""),
        card("memory records", data.memory.records, `${data.memory.worked} worked · ${data.memory.not_worked} failed`),
        card("store", bytes(data.store_bytes), data.store_path),
        card("model", data.model || "none yet", data.dim ? `dim ${data.dim} · generation ${data.generation}` : ""),
      ),
      sourcesTable(data, refresh),
      jobsList(data.jobs),
    );
    clearTimeout(timer);
    if (running.length) timer = setTimeout(() => draw().catch((e) => notice(e.message)), 500);
  }
  async function refresh(name) {
    try {
      await api(`/api/refresh/${encodeURIComponent(name)}`, { method: "POST" });
      notice(`refreshing ${name}…`, "info");
      await draw();
    } catch (err) {
      notice(err.message);
    }
  }
  await draw();
  return () => clearTimeout(timer);
}

function card(label, value, detail) {
  return h("div", { class: "card" }, h("div", { class: "muted" }, label), h("div", { class: "big" }, value), h("div", { class: "muted" }, detail));
}

function sourcesTable(data, refresh) {
  const busy = new Set(data.jobs.filter((j) => j.state === "running").map((j) => j.source));
  const rows = data.sources.map((s) => {
    const kinds = Object.entries(s.chunks).map(([k, n]) => `${k} ${n}`).join(", ") || "0";
    const version = s.refresh_due
      ? h("span", { class: "due", title: "installed version differs" }, `${s.version} → ${s.installed_version} (refresh due)`)
      : s.version || (s.commit ? s.commit.slice(0, 10) : s.status !== "failed" || Object.keys(s.chunks).length ? "unversioned" : "–");
    const skipped = s.skipped.length
      ? h("details", {}, h("summary", {}, `${s.skipped_files} skipped`), h("ul", {}, s.skipped.slice(0, 50).map(([p, r]) => h("li", {}, `${p}: ${r}`))))
      : "–";
    const button = h("button", {
      class: "refresh", "data-source": s.name, disabled: !s.refreshable || busy.has(s.name),
      title: s.refreshable ? "re-index the changed files (ctxhub refresh)" : "the store did not record this source's entry",
      onclick: () => refresh(s.name),
    }, busy.has(s.name) ? "refreshing…" : "refresh");
    return h("tr", { "data-source": s.name },
      h("td", {}, h("strong", {}, s.name), h("div", { class: "muted" }, s.origin)),
      h("td", {}, s.kinds.join(", ")),
      h("td", {}, version),
      h("td", { class: s.status === "ok" ? "" : s.status === "warning" ? "muted" : "failed" }, s.status, s.error ? h("div", {}, s.error) : null, s.warning ? h("div", { class: "muted" }, s.warning) : null),
      h("td", {}, ago(s.last_refresh), s.stale ? h("div", { class: "due" }, "stale") : null),
      h("td", { class: "chunks" }, kinds),
      h("td", {}, skipped),
      h("td", {}, button),
    );
  });
  return h("div", { class: "card" }, h("h2", {}, "Sources"),
    h("table", { id: "sources" },
      h("thead", {}, h("tr", {}, ["source", "kinds", "version", "status", "last refresh", "chunks", "skipped", ""].map((t) => h("th", {}, t)))),
      h("tbody", {}, rows)));
}

function jobsList(jobs) {
  if (!jobs.length) return null;
  return h("div", { class: "card" }, h("h2", {}, "Refreshes from this page"),
    h("table", { id: "jobs" }, h("tbody", {}, jobs.map((j) => h("tr", { "data-job": j.id, "data-state": j.state },
      h("td", {}, j.source),
      h("td", { class: j.state === "failed" ? "failed" : "" }, j.state, j.error ? `: ${j.error}` : ""),
      h("td", {}, j.phase, j.total ? ` ${j.done}/${j.total}` : ""),
      h("td", {}, h("div", { class: "progress" }, h("div", { style: `width:${j.total ? (100 * j.done) / j.total : j.state === "running" ? 5 : 100}%` }))),
      h("td", { class: "muted" }, j.lines.slice(-1)[0] || ""),
    )))));
}
