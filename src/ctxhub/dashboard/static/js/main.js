// The router: one page module per #hash; each exports render(root) and may return a
// cleanup function (timers, listeners) called when another page opens.
import { notice } from "./dom.js";

const PAGES = {
  overview: () => import("./overview.js"),
  search: () => import("./search.js"),
  map: () => import("./map.js"),
  memory: () => import("./memory.js"),
  feedback: () => import("./feedback.js"),
};
let cleanup = null;

async function show() {
  const name = (location.hash || "#overview").slice(1).split("?")[0];
  const page = PAGES[name] ? name : "overview";
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.page === page);
  if (cleanup) { cleanup(); cleanup = null; }
  notice(null);
  const root = document.getElementById("page");
  root.replaceChildren();
  root.dataset.page = page;
  try {
    const module = await PAGES[page]();
    cleanup = (await module.render(root)) || null;
  } catch (err) {
    notice(err.message);
  }
}

window.addEventListener("hashchange", show);
show();
