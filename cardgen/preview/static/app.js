// cardgen serve: the page. Reads /api/state, follows /events (server-sent events); no build step.
"use strict";
let state = null;
let large = null; // {component, id, face, field}
const drawn = new Map(); // card element id → what it shows (JSON): unchanged cards are not touched

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
const cardDomId = (comp, id) => `card-${comp}-${id}`;
const imgUrl = (key) => `/img/${key}`;

function setImg(img, key) { // only touch the src when the face changed: no flicker, no refetch
  const want = key ? imgUrl(key) : "";
  if (img.dataset.key !== (key || "")) { img.dataset.key = key || ""; if (want) img.src = want; else img.removeAttribute("src"); }
}

function renderCards() {
  const root = document.getElementById("components");
  const flagged = new Set();
  for (const p of state.problems) for (const c of p.cards) flagged.add(cardDomId(c.component, c.id));
  const wanted = new Set();
  for (const comp of state.components || []) {
    let sec = document.getElementById(`comp-${comp.id}`);
    if (!sec) { sec = el("div", {class: "component", id: `comp-${comp.id}`}, el("h3", {}), el("div", {class: "grid"})); root.append(sec); }
    wanted.add(sec.id);
    const total = comp.cards.reduce((n, c) => n + c.count, 0);
    sec.querySelector("h3").textContent = `${comp.name} (${comp.id}) — ${comp.cards.length} kinds, ${total} cards`;
    let err = sec.querySelector(".comp-error");
    if (!err) { err = el("pre", {class: "comp-error"}); sec.insertBefore(err, sec.querySelector(".grid")); }
    err.textContent = comp.error ? `last good faces — this component could not be laid out:\n${comp.error.join("\n")}` : "";
    err.hidden = !comp.error;
    sec.classList.toggle("stale", !!comp.stale);
    const grid = sec.querySelector(".grid");
    const ids = new Set();
    comp.cards.forEach((card, i) => {
      const id = cardDomId(comp.id, card.id);
      ids.add(id);
      let box = document.getElementById(id);
      const sig = JSON.stringify([card.front, card.back, card.count, flagged.has(id)]);
      if (box && drawn.get(id) === sig && grid.children[i] === box) return;
      drawn.set(id, sig);
      if (!box) {
        box = el("div", {class: "card", id, "data-component": comp.id, "data-card": card.id},
          el("div", {class: "faces"}, el("img", {id: `img-${comp.id}-${card.id}-front`, alt: `${card.id} front`}),
             el("img", {id: `img-${comp.id}-${card.id}-back`, alt: `${card.id} back`})),
          el("div", {class: "meta"}));
        box.addEventListener("click", () => openLarge(comp.id, card.id, "front", ""));
      }
      if (grid.children[i] !== box) grid.insertBefore(box, grid.children[i] || null);
      setImg(box.querySelector(`#img-${CSS.escape(comp.id)}-${CSS.escape(card.id)}-front`), card.front);
      const back = box.querySelectorAll("img")[1];
      setImg(back, card.back); back.hidden = !card.back;
      box.querySelector(".meta").textContent = `${card.id} ×${card.count}`;
      box.classList.toggle("flagged", flagged.has(id));
    });
    for (const child of [...grid.children]) if (!ids.has(child.id)) { drawn.delete(child.id); child.remove(); }
  }
  for (const child of [...root.children]) if (!wanted.has(child.id)) {
    child.querySelectorAll(".card").forEach(c => drawn.delete(c.id)); child.remove();
  }
}

function renderDeck() {
  document.getElementById("deck").classList.toggle("checking", !!state.checking);
  document.getElementById("deck-checking").textContent = state.checking ? "checking this save… the table is the previous check's" : "";
  const body = document.querySelector("#deck-math tbody");
  body.replaceChildren(...state.deck_math.map(pc => el("tr", {class: pc.ok ? "ok" : "bad", "data-players": pc.players},
    ...[pc.players, pc.deck, pc.removed, pc.hand, pc.dead_wall, pc.draw_pile, pc.turns, pc.declared_turns ?? "—",
        pc.ok ? "ok" : "MISMATCH"].map(v => el("td", {}, String(v ?? "—"))))));
}

function renderProblems() {
  // While a save is being checked the list is the last check's: said so, and dimmed, until the
  // check of this save replaces it (the rulebook's problems follow with the pages).
  const all = state.problems.concat(state.rules_problems || []);
  const section = document.getElementById("problems-section");
  section.classList.toggle("checking", !!state.checking);
  section.classList.toggle("rules-checking", !!state.rules_checking && !state.checking);
  document.getElementById("problem-count").textContent = `(${all.length})`;
  const rules = (state.rules_problems || []).length;
  document.getElementById("problems-checking").textContent = state.checking ?
    "checking this save… the problems below are from the previous check" :
    state.rules_checking ? (rules ? "checking the rulebook… its problems below are from the previous check" :
      "checking the rulebook…") : "";
  const list = document.getElementById("problems");
  list.replaceChildren(...all.map((p, i) => {
    const li = el("li", {class: p.severity + (i >= state.problems.length ? " rules" : "")});
    for (const c of p.cards) {
      const label = `${c.component} ${c.id}${c.face === "back" ? " back" : ""}${c.field ? " → " + c.field : ""}`;
      li.append(el("a", {href: `#${cardDomId(c.component, c.id)}`, class: "card-link", "data-component": c.component,
        "data-card": c.id, "data-field": c.field, onclick: (ev) => { ev.preventDefault(); openLarge(c.component, c.id, c.face, c.field); }}, label));
    }
    li.append(p.text);
    return li;
  }));
}

function renderPages() {
  for (const [kind, id] of [["rulebook", "rulebook-pages"], ["sheets", "sheet-pages"]]) {
    const keys = (state.pages || {})[kind] || [];
    const root = document.getElementById(id);
    while (root.children.length > keys.length) root.lastChild.remove();
    keys.forEach((k, i) => {
      let img = root.children[i];
      if (!img) { img = el("img", {alt: `${kind} page ${i + 1}`}); root.append(img); }
      setImg(img, k);
    });
  }
}

function openLarge(compId, cardId, face, field) {
  large = {component: compId, id: cardId, face, field};
  const box = document.getElementById(cardDomId(compId, cardId));
  document.querySelectorAll(".card.target").forEach(e => e.classList.remove("target"));
  if (box) { box.classList.add("target"); }
  renderLarge();
}

function renderLarge() {
  const view = document.getElementById("large");
  const comp = large && (state.components || []).find(c => c.id === large.component);
  const card = comp && comp.cards.find(c => c.id === large.id);
  if (!card) { view.hidden = true; return; }
  const face = card[large.face] ? large.face : "front";
  view.hidden = false;
  view.dataset.component = comp.id; view.dataset.card = card.id; view.dataset.face = face;
  document.getElementById("large-title").textContent = `${comp.name} ${card.id} (${face}) ×${card.count}`;
  document.getElementById("large-back").hidden = !card.back;
  setImg(document.getElementById("large-img"), card[face]);
  const frame = document.getElementById("large-frame");
  frame.querySelectorAll(".box").forEach(b => b.remove());
  const [w, h] = comp.size_mm, b = comp.bleed_mm, W = w + 2 * b, H = h + 2 * b;
  const marks = (card.marks || {})[face] || {};
  for (const bx of (comp.boxes[face] || [])) {
    const [x, y, bw, bh] = bx.box;
    const d = el("div", {class: `box ${marks[bx.name] || ""}`, "data-name": bx.name}, el("span", {}, bx.name));
    d.style.left = `${(x + b) / W * 100}%`; d.style.top = `${(y + b) / H * 100}%`;
    d.style.width = `${bw / W * 100}%`; d.style.height = `${bh / H * 100}%`;
    if (bx.name === large.field) d.classList.add("target");
    frame.append(d);
  }
  const notes = document.getElementById("large-notes");
  const mine = state.problems.filter(p => p.cards.some(c => c.component === comp.id && c.id === card.id));
  notes.replaceChildren(...mine.map(p => el("li", {class: p.severity}, p.text)));
}

function render() {
  document.title = `${state.title || state.game} — cardgen preview`;
  document.getElementById("title").textContent = `${state.title || state.game} ${state.game_version || ""}`.trim() || "cardgen preview";
  const banner = document.getElementById("banner");
  const errors = state.problems.filter(p => p.severity === "error");
  if (state.stale) {
    banner.hidden = false;
    banner.textContent = "The last save could not be shown; the faces below are from the last good build.\n" + errors.map(p => p.text).join("\n");
  } else banner.hidden = true;
  document.getElementById("status").textContent = state.building ? "building…" :
    state.checking ? `faces updated ${new Date().toLocaleTimeString()} · checking…` :
    `updated ${new Date().toLocaleTimeString()} · ${errors.length} error(s), ${state.problems.length - errors.length} warning(s)` +
    (state.rules_checking ? " · rulebook: checking…" : "");
  document.body.classList.toggle("checking", !!state.checking);
  document.body.dataset.version = state.version;
  renderCards(); renderDeck(); renderProblems(); renderPages();
  if (large) renderLarge();
}

async function refresh() {
  const r = await fetch("/api/state", {cache: "no-store"});
  state = await r.json();
  render();
}

document.getElementById("large-close").addEventListener("click", () => { large = null; document.getElementById("large").hidden = true; });
document.getElementById("large-front").addEventListener("click", () => { large.face = "front"; renderLarge(); });
document.getElementById("large-back").addEventListener("click", () => { large.face = "back"; renderLarge(); });
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") document.getElementById("large-close").click(); });

let pending = Promise.resolve();
const events = new EventSource("/events");
events.addEventListener("update", () => { pending = pending.then(refresh, refresh); });
events.onerror = () => { document.getElementById("status").textContent = "disconnected — is cardgen serve running?"; };
