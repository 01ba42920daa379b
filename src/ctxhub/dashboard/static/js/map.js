// Latent space: every chunk as a point of a 2-D canvas (PCA computed server-side),
// coloured by source or kind (a 3-D view turns all three components); drag to pan (or
// turn), wheel to zoom, hover for the label, click to open the chunk; a search rings its
// hits; memory records drawn as their own layer.
import { api } from "./api.js";
import { h, notice } from "./dom.js";
import { openChunk, openRecord } from "./viewer.js";

const PALETTE = ["#2f6fdb", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#d4ac0d", "#7f8c8d", "#e84393", "#2c3e50"];

export async function render(root) {
  const waiting = h("p", { class: "muted" }, "projecting the vectors (once per store generation)…");
  root.append(waiting);
  const data = await api("/api/projection");
  waiting.remove();
  if (!data.points.length) {
    root.append(h("div", { class: "card empty", id: "empty-message" }, "nothing to map yet: add a source: ctxhub add SOURCE"));
    return null;
  }
  const colourBy = h("select", { id: "colour-by" }, h("option", { value: "source" }, "colour by source"), h("option", { value: "kind" }, "colour by kind"));
  const showRecords = h("input", { type: "checkbox", id: "show-records", checked: true });
  const threeD = h("input", { type: "checkbox", id: "three-d" });
  const query = h("input", { id: "map-query", placeholder: "search to highlight hits", size: 30 });
  const legend = h("div", { class: "legend" });
  const canvas = h("canvas", { id: "map-canvas" });
  const tip = h("div", { id: "map-tip", hidden: true });
  root.append(
    h("form", { class: "filters", onsubmit: (e) => { e.preventDefault(); highlight(); } }, colourBy,
      h("label", { style: "flex-direction:row;gap:.3rem" }, showRecords, `memory records (${data.records.length})`),
      h("label", { style: "flex-direction:row;gap:.3rem", title: "the third component too; drag to turn" }, threeD, "3-D"), query,
      h("button", { class: "primary" }, "Highlight"), h("span", { class: "muted", id: "map-count" }, `${data.points.length} chunks`)),
    legend, h("div", { id: "map-wrap" }, canvas, tip));

  const n = data.points.length;
  const xs = new Float32Array(n), ys = new Float32Array(n);
  // xs/ys: what is drawn (the first two components, or the 3-D view's rotation of all three)
  const base = data.points.map((p) => [p[1], p[2], p[3]]);
  const turn = { on: false, yaw: 0, pitch: 0 };
  function rotate(x, y, z) {
    if (!turn.on) return [x, y];
    const cy = Math.cos(turn.yaw), sy = Math.sin(turn.yaw), cp = Math.cos(turn.pitch), sp = Math.sin(turn.pitch);
    const x1 = x * cy + z * sy, z1 = -x * sy + z * cy;
    return [x1, y * cp - z1 * sp];
  }
  function project() {
    base.forEach(([x, y, z], i) => { [xs[i], ys[i]] = rotate(x, y, z); });
  }
  project();
  const index = new Map(data.points.map((p, i) => [p[0], i]));
  let hits = new Set();
  const view = { x: 0, y: 0, zoom: 1 };
  let frame = 0;

  function size() {
    const ratio = window.devicePixelRatio || 1;
    canvas.width = canvas.clientWidth * ratio;
    canvas.height = canvas.clientHeight * ratio;
    canvas.getContext("2d").setTransform(ratio, 0, 0, ratio, 0, 0);
  }
  function toScreen(x, y) {
    const w = canvas.clientWidth, hgt = canvas.clientHeight, s = Math.min(w, hgt) * 0.45 * view.zoom;
    return [w / 2 + (x - view.x) * s, hgt / 2 - (y - view.y) * s];
  }
  const grouped = {};
  function groups() {  // point indexes by colour, for the current colouring
    const by = colourBy.value;
    if (!grouped[by]) {
      const field = by === "kind" ? 5 : 4;
      grouped[by] = [];
      data.points.forEach((p, i) => { (grouped[by][p[field]] ||= []).push(i); });
    }
    return grouped[by];
  }
  function colour(i) {
    const p = data.points[i];
    return PALETTE[(colourBy.value === "kind" ? p[5] : p[4]) % PALETTE.length];
  }
  const frames = [];  // the last draws' durations in ms (the benchmark reads them)
  function draw() {
    frame = 0;
    const began = performance.now();
    const ctx = canvas.getContext("2d");
    ctx.clearRect(0, 0, canvas.clientWidth, canvas.clientHeight);
    const faded = hits.size > 0;
    const dot = n < 2000 ? 5 : n < 10000 ? 3 : 2;
    ctx.globalAlpha = faded ? 0.25 : 0.7;
    // one path per colour: a fillStyle change per point costs more than the points
    const w = canvas.clientWidth, hgt = canvas.clientHeight, s = Math.min(w, hgt) * 0.45 * view.zoom;
    const ox = w / 2 - view.x * s, oy = hgt / 2 + view.y * s;
    groups().forEach((members, g) => {
      ctx.fillStyle = PALETTE[g % PALETTE.length];
      ctx.beginPath();
      for (const i of members) {
        const sx = ox + xs[i] * s, sy = oy - ys[i] * s;
        if (sx < -dot || sy < -dot || sx > w + dot || sy > hgt + dot) continue;
        ctx.rect(sx - dot / 2, sy - dot / 2, dot, dot);
      }
      ctx.fill();
    });
    ctx.globalAlpha = 1;
    if (showRecords.checked) {
      ctx.fillStyle = "#111";
      for (const r of data.records) {
        const [sx, sy] = toScreen(...rotate(r[1], r[2], r[3]));
        ctx.beginPath(); ctx.moveTo(sx, sy - 5); ctx.lineTo(sx + 5, sy); ctx.lineTo(sx, sy + 5); ctx.lineTo(sx - 5, sy); ctx.fill();
      }
    }
    ctx.lineWidth = 2;
    for (const id of hits) {
      const i = index.get(id);
      if (i === undefined) continue;
      const [sx, sy] = toScreen(xs[i], ys[i]);
      ctx.strokeStyle = colour(i);
      ctx.beginPath(); ctx.arc(sx, sy, 7, 0, 2 * Math.PI); ctx.stroke();
    }
    frames.push(performance.now() - began);
    if (frames.length > 200) frames.shift();
  }
  function redraw() { if (!frame) frame = requestAnimationFrame(draw); }
  function drawLegend() {
    const names = colourBy.value === "kind" ? data.kinds : data.sources;
    legend.replaceChildren(...names.map((name, i) => h("span", {}, h("i", { style: `background:${PALETTE[i % PALETTE.length]}` }), name)),
      h("span", {}, "◆ memory record"));
  }
  // nearest point within 6 px: records first (they are drawn on top), then chunks
  function nearest(mx, my) {
    let best = null, bestD = 36;
    if (showRecords.checked) for (const r of data.records) {
      const [sx, sy] = toScreen(...rotate(r[1], r[2], r[3])); const d = (sx - mx) ** 2 + (sy - my) ** 2;
      if (d < bestD) { bestD = d; best = { record: r }; }
    }
    if (best) return best;
    for (let i = 0; i < n; i++) {
      const [sx, sy] = toScreen(xs[i], ys[i]); const d = (sx - mx) ** 2 + (sy - my) ** 2;
      if (d < bestD) { bestD = d; best = { chunk: i }; }
    }
    return best;
  }
  async function highlight() {
    const q = query.value.trim();
    if (!q) { hits = new Set(); redraw(); return; }
    try {
      const answer = await api("/api/call", { method: "POST", body: { tool: "search", args: { query: q, limit: 20 } } });
      hits = new Set(answer.data.hits.map((hit) => hit.id));
      document.getElementById("map-count").textContent = `${n} chunks · ${hits.size} hits highlighted`;
      redraw();
    } catch (err) {
      notice(err.message);
    }
  }

  let drag = null, moved = false;
  canvas.addEventListener("mousedown", (e) => { drag = { x: e.offsetX, y: e.offsetY, vx: view.x, vy: view.y, yaw: turn.yaw, pitch: turn.pitch }; moved = false; });
  window.addEventListener("mouseup", () => { drag = null; });
  canvas.addEventListener("mousemove", (e) => {
    if (drag) {
      const s = Math.min(canvas.clientWidth, canvas.clientHeight) * 0.45 * view.zoom;
      if (Math.abs(e.offsetX - drag.x) + Math.abs(e.offsetY - drag.y) > 3) moved = true;
      if (turn.on) {  // 3-D: dragging turns the cloud
        turn.yaw = drag.yaw + (e.offsetX - drag.x) * 0.01; turn.pitch = drag.pitch + (e.offsetY - drag.y) * 0.01;
        project();
      } else {
        view.x = drag.vx - (e.offsetX - drag.x) / s; view.y = drag.vy + (e.offsetY - drag.y) / s;
      }
      tip.hidden = true; redraw(); return;
    }
    const found = nearest(e.offsetX, e.offsetY);
    tip.hidden = !found;
    if (found) {
      tip.textContent = found.record ? `memory: ${found.record[4]}` : `${data.points[found.chunk][6]} (${data.kinds[data.points[found.chunk][5]]}, ${data.sources[data.points[found.chunk][4]]})`;
      tip.style.left = `${e.offsetX + 12}px`; tip.style.top = `${e.offsetY + 12}px`;
    }
  });
  canvas.addEventListener("click", (e) => {
    if (moved) return;
    const found = nearest(e.offsetX, e.offsetY);
    if (found && found.record) openRecord(found.record[0]);
    else if (found) openChunk(data.points[found.chunk][0]);
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    view.zoom = Math.min(200, Math.max(0.5, view.zoom * (e.deltaY < 0 ? 1.2 : 1 / 1.2)));
    redraw();
  }, { passive: false });
  colourBy.addEventListener("change", () => { drawLegend(); redraw(); });
  showRecords.addEventListener("change", redraw);
  threeD.addEventListener("change", () => { turn.on = threeD.checked; turn.yaw = turn.pitch = 0; view.x = view.y = 0; project(); redraw(); });
  const onResize = () => { size(); redraw(); };
  window.addEventListener("resize", onResize);
  // For automation and tests: where a chunk is drawn now, in canvas pixels.
  window.ctxhubMap = { screenOf: (id) => (index.has(id) ? toScreen(xs[index.get(id)], ys[index.get(id)]) : null), ids: () => [...index.keys()], frames: () => [...frames] };
  size(); drawLegend(); draw();
  return () => { window.removeEventListener("resize", onResize); delete window.ctxhubMap; };
}
