// showdown's browser view: match, hand list, replayer, tournament, live updates and the human seat.
// Plain JavaScript, no build step and no network beyond the server that sent it. In a saved report
// (showdown report) the data is embedded in window.SHOWDOWN_EMBEDDED and nothing is fetched.
"use strict";

const EMB = window.SHOWDOWN_EMBEDDED;
const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const COLORS = ["#2a5db0", "#c0262d", "#1f7a3f", "#b06a00", "#6d3fb0", "#0e7c86"];
const SUITS = { s: ["\u2660", "black"], h: ["\u2665", "red"], d: ["\u2666", "red"], c: ["\u2663", "black"] };
let cleanup = [];

// ---------------------------------------------------------------- helpers

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined) e.append(kid instanceof Node ? kid : String(kid));
  return e;
}
function fill(node, ...kids) {
  node.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
}
function svg(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
const num = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? "n/a" : Math.abs(x) < 1e-7 ? (0).toFixed(d) : (x > 0 ? "+" : "") + Number(x).toFixed(d));
const halfWidth = (c) => (c ? (c[1] - c[0]) / 2 : null);
// decimals for a column of [value, 95% half-width]: one significant digit of the half-width, and the
// first digit of every value the interval separates from zero (as the command line's tables)
const digitsFor = (pairs) => {
  let d = 2;
  for (const [v, h] of pairs) {
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    if (h !== null && Number.isFinite(h) && h > 0) d = Math.max(d, -Math.floor(Math.log10(h)));
    if (Math.abs(v) > Math.max(h || 0, 1e-7)) d = Math.max(d, -Math.floor(Math.log10(Math.abs(v))));
  }
  return Math.min(d, 6);
};
const ci = (c, d = 2) => (!c ? "n/a" : c[0] === c[1] ? "exact" : `[${num(c[0], d)}, ${num(c[1], d)}]`);
const signClass = (x) => (x > 0 ? "pos" : x < 0 ? "neg" : "");
const enc = encodeURIComponent;

async function api(path, params) {
  if (EMB) return embedded(path, params || {});
  const q = new URLSearchParams(params || {}).toString();
  const r = await fetch(`/api/${path}${q ? "?" + q : ""}`);
  let doc;
  try { doc = await r.json(); } catch (e) { throw new Error(`the server answered ${r.status} ${r.statusText}`); }
  if (!r.ok || doc.error) throw new Error(doc.error || r.statusText);
  return doc;
}

function embedded(path, p) {
  const miss = () => { throw new Error("not included in this report"); };
  if (path === "index") return EMB.index;
  if (path === "match") return EMB.matches[p.key] || miss();
  if (path === "tournament") return EMB.tournaments[p.key] || miss();
  if (path === "hand") return (EMB.replays[p.key] || {})[p.offset] || miss();
  if (path === "hands") {
    const all = (EMB.hands[p.key] || { hands: [] }).hands;
    const start = Number(p.start || 0), limit = Number(p.limit || 50);
    const keep = all.filter((h) => handMatches(h, p));
    return { hands: keep.slice(start, start + limit), next: start + limit < keep.length ? start + limit : null, total: all.length };
  }
  return miss();
}

function handMatches(h, p) {
  if (p.agent && !h.players.includes(p.agent)) return false;
  if (p.agent && p.position !== "" && p.position !== undefined && h.players[Number(p.position)] !== p.agent) return false;
  if (p.showdown === "yes" && !h.showdown) return false;
  if (p.showdown === "no" && h.showdown) return false;
  if (p.min_won && h.won < Number(p.min_won)) return false;
  return true;
}

function cards(text, hidden) {
  const out = el("span", { class: "cards" });
  const t = text || "";
  if (!t && hidden) { out.append(el("span", { class: "card back", text: "??" })); return out; }
  for (let i = 0; i + 1 < t.length + 1; i += 2) {
    const rank = t[i], suit = t[i + 1];
    if (!rank || !suit) break;
    const [sym, color] = SUITS[suit] || [suit, "black"];
    out.append(el("span", { class: `card ${color}`, "data-card": rank + suit, text: (rank === "T" ? "10" : rank) + sym }));
  }
  return out;
}

function showError(e) {
  fill(main, el("p", { class: "error", "data-testid": "error", text: e.message || String(e) }));
}

function setCrumbs(items) {
  fill(crumbs, ...items.map(([text, href]) => (href ? el("a", { href, text }) : el("span", { text }))));
}

// ---------------------------------------------------------------- routing

async function route() {
  for (const f of cleanup) f();
  cleanup = [];
  try {
    const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
    if (parts[0] === "match" && parts[1]) await matchPage(parts[1]);
    else if (parts[0] === "hand" && parts[1]) await handPage(parts[1], Number(parts[2] || 0));
    else if (parts[0] === "tournament" && parts[1]) await tournamentPage(parts[1]);
    else if (parts[0] === "play") await playPage();
    else await indexPage();
  } catch (e) {
    showError(e);
  }
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// ---------------------------------------------------------------- index

async function indexPage() {
  const idx = await api("index");
  if (idx.play && !EMB) { location.hash = "#/play"; return; }
  if (!EMB && idx.matches.length === 1 && !idx.tournaments.length) { location.hash = "#/match/" + enc(idx.matches[0].key); return; }
  if (EMB && EMB.start) { location.hash = EMB.start; return; }
  setCrumbs([]);
  const body = [el("h1", { text: "Matches and tournaments" })];
  if (!idx.matches.length && !idx.tournaments.length) body.push(el("p", { class: "error", "data-testid": "error", text: "no match logs or tournaments found here: give showdown view a match's output folder, its logs, or a tournament folder" }));
  if (idx.tournaments.length) body.push(el("h2", { text: "Tournaments" }), el("ul", { class: "plain" }, idx.tournaments.map((t) => el("li", {}, el("a", { href: "#/tournament/" + enc(t.key), text: t.title })))));
  if (idx.matches.length) body.push(el("h2", { text: "Matches" }), el("ul", { class: "plain" }, idx.matches.map((m) => el("li", {}, el("a", { href: "#/match/" + enc(m.key), "data-testid": "match-link", text: m.title }), m.folder ? el("span", { class: "muted", "data-testid": "match-folder", text: `  in ${m.folder}/` }) : "", m.finished ? "" : el("span", { class: "badge", text: "running, or stopped before its end" })))));
  fill(main, ...body);
}

// ---------------------------------------------------------------- match

async function matchPage(key) {
  const doc = await api("match", { key });
  setCrumbs([["matches", "#/"], [doc.key || key, null]]);
  const head = el("div", { id: "head" });
  const tables = el("div", { id: "tables" });
  const chart = el("div", { id: "chart" });
  const list = el("div", { id: "hands" });
  fill(main, head, tables, chart, list);
  renderSummary(doc, head, tables, chart);
  renderHandList(doc, list, key);
  if (!doc.finished && !EMB) {
    const source = new EventSource(`/api/live?key=${enc(key)}`);
    source.addEventListener("update", (ev) => renderSummary(JSON.parse(ev.data), head, tables, chart));
    source.addEventListener("done", () => { source.close(); setTimeout(route, 300); });
    source.addEventListener("fail", (ev) => { source.close(); head.append(el("p", { class: "error", text: JSON.parse(ev.data).error })); });
    cleanup.push(() => source.close());
  }
}

function renderSummary(doc, head, tables, chart) {
  const played = doc.hands_requested && doc.hands_requested !== doc.hands ? `${doc.hands.toLocaleString()} of ${doc.hands_requested.toLocaleString()} hands` : `${(doc.hands || 0).toLocaleString()} hands`;
  fill(head, 
    el("h1", {}, `${doc.game || "?"}: `, el("span", { "data-testid": "hands", text: played }),
      doc.finished ? el("span", { class: "badge", text: "finished" }) : el("span", { class: "badge live", "data-testid": "live", text: "live" }),
      doc.degraded ? el("span", { class: "badge live", text: "degraded" }) : null),
    el("p", { class: "muted" }, "estimator: ", el("b", { "data-testid": "estimator", text: doc.estimator }), doc.reason ? ` (${doc.reason})` : "",
      doc.seed !== undefined ? `; seed ${doc.seed}` : "", doc.fixed_seats ? "; fixed seats" : ""),
  );
  const mbb = doc.show_mbb;
  const d = digitsFor([...(doc.agents || []), ...(doc.positions || []), ...(doc.differences || [])].map((e) => [e.per100, halfWidth(e.ci95)]));
  const headRow = (first) => el("tr", {}, el("th", { text: first }), el("th", { text: "hands" }), el("th", { text: "total" }), el("th", { text: "chips/100" }), el("th", { text: "95% CI" }), mbb ? el("th", { text: "mbb/hand" }) : null);
  const row = (label, e, attrs) => el("tr", attrs, el("td", { text: label }), el("td", { text: (e.hands ?? "").toLocaleString() }),
    el("td", { class: signClass(e.total), text: e.total === undefined ? "" : num(e.total, Number.isInteger(e.total) ? 0 : 1) }),
    el("td", { class: signClass(e.per100), "data-field": "per100", text: num(e.per100, d) }), el("td", { "data-field": "ci95", text: ci(e.ci95, d) }),
    mbb ? el("td", { text: num(e.mbb_per_hand, 1) }) : null);
  const parts = [
    el("table", { "data-testid": "agents" }, headRow("agent"), (doc.agents || []).map((a) => row(a.name, a, { "data-agent": a.name }))),
    el("table", { "data-testid": "positions" }, headRow("position"), (doc.positions || []).map((p) => row(`position ${p.position}`, p, { "data-position": p.position }))),
  ];
  if (doc.differences && doc.differences.length) {
    parts.push(el("table", { "data-testid": "differences" }, el("tr", {}, el("th", { text: "difference" }), el("th", { text: "chips/100" }), el("th", { text: "95% CI" }), el("th", { text: "p" })),
      doc.differences.map((x) => el("tr", {}, el("td", { text: `${x.a} - ${x.b}` }), el("td", { class: signClass(x.per100), text: num(x.per100, d) }), el("td", { text: ci(x.ci95, d) }), el("td", { text: x.p_value === undefined || x.p_value === null ? "" : Number(x.p_value).toPrecision(3) })))));
  }
  if (doc.exact_values) {
    const x = doc.exact_values;
    parts.push(el("p", { "data-testid": "exact" }, "exact expected chips/100 (every strategy known): ", Object.entries(x.agents).map(([n, v]) => `${n} ${num(v)}`).join(", ")));
  }
  const repl = [];
  for (const [name, counts] of Object.entries(doc.replacements || {})) {
    const shown = Object.entries(counts).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`);
    if (shown.length) repl.push(`${name}: ${shown.join(", ")}`);
  }
  for (const [name, n] of Object.entries(doc.replaced_hands || {})) if (n) repl.push(`the dealer played for ${name} in ${n} hands`);
  parts.push(el("p", { class: repl.length ? "error" : "muted", "data-testid": "replacements", text: repl.length ? "replacements: " + repl.join("; ") : "no timeouts, invalid actions or disconnects" }));
  for (const n of doc.notes || []) parts.push(el("p", { class: "muted", text: "note: " + n }));
  fill(tables, ...parts);
  fill(chart, el("h2", { text: "Cumulative winnings, with the 95% band" }), drawSeries(doc.series));
}

function drawSeries(series) {
  if (!series || !series.points || !series.points.length) return el("p", { class: "muted", text: "no hands yet" });
  const W = 900, H = 300, L = 60, R = 10, T = 10, B = 30;
  const pts = series.points, n = series.names.length, maxH = pts[pts.length - 1][0];
  let lo = 0, hi = 0;
  const band = (s, k) => 1.959963984540054 * (series.sd[s] || 0) * Math.sqrt(k);
  for (const [k, totals] of pts) for (let s = 0; s < n; s++) { lo = Math.min(lo, totals[s] - band(s, k)); hi = Math.max(hi, totals[s] + band(s, k)); }
  if (hi === lo) { hi += 1; lo -= 1; }
  const x = (k) => L + ((W - L - R) * k) / Math.max(1, maxH), y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "chart", "data-testid": "chart" });
  g.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#999", "stroke-width": 1 }));
  for (const v of [lo, (lo + hi) / 2, hi]) { const t = svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#666" }); t.textContent = Math.round(v).toLocaleString(); g.append(t); }
  const xt = svg("text", { x: W - R, y: H - 8, "text-anchor": "end", "font-size": 11, fill: "#666" }); xt.textContent = `${maxH.toLocaleString()} hands`; g.append(xt);
  const legend = el("div", { class: "legend" });
  for (let s = 0; s < n; s++) {
    const color = COLORS[s % COLORS.length];
    const up = pts.map(([k, t]) => `${x(k)},${y(t[s] + band(s, k))}`), down = pts.map(([k, t]) => `${x(k)},${y(t[s] - band(s, k))}`).reverse();
    g.append(svg("polygon", { points: [`${x(0)},${y(0)}`, ...up, ...down].join(" "), fill: color, "fill-opacity": 0.12, stroke: "none" }));
    g.append(svg("polyline", { points: [`${x(0)},${y(0)}`, ...pts.map(([k, t]) => `${x(k)},${y(t[s])}`)].join(" "), fill: "none", stroke: color, "stroke-width": 1.6 }));
    legend.append(el("span", { style: `color:${color}`, text: `\u25A0 ${series.names[s]} ${num(pts[pts.length - 1][1][s], 0)}` }));
  }
  return el("div", {}, g, legend);
}

function renderHandList(doc, box, key) {
  const names = (doc.agents || []).map((a) => a.name);
  const f = { agent: el("select", {}, el("option", { value: "", text: "any agent" }), names.map((n) => el("option", { value: n, text: n }))),
    position: el("select", {}, el("option", { value: "", text: "any position" }), (doc.positions || []).map((p) => el("option", { value: p.position, text: `in position ${p.position}` }))),
    showdown: el("select", {}, el("option", { value: "", text: "showdown or not" }), el("option", { value: "yes", text: "went to showdown" }), el("option", { value: "no", text: "ended by a fold" })),
    min_won: el("input", { type: "number", min: 0, placeholder: "chips won ≥", style: "width:8em" }) };
  const table = el("table", { "data-testid": "hand-list" });
  const more = el("button", { text: "more hands" });
  let next = 0;
  async function load(reset) {
    if (reset) { next = 0; fill(table, el("tr", {}, ["hand", "players", "cards", "board", "betting", "result"].map((t) => el("th", { text: t })))); }
    const params = { key, start: next, limit: 50, agent: f.agent.value, position: f.agent.value ? f.position.value : "", showdown: f.showdown.value, min_won: f.min_won.value };
    try {
      const page = await api("hands", params);
      for (const hd of page.hands) {
        table.append(el("tr", { class: "clickable", "data-hand": hd.hand, onclick: () => { location.hash = `#/hand/${enc(key)}/${hd.offset}`; } },
          el("td", { text: hd.hand }), el("td", { text: hd.players.join(", ") }), el("td", {}, hd.hole.map((c) => [cards(c), " "])),
          el("td", {}, cards((hd.board || []).join(""))), el("td", { text: hd.betting }), el("td", { text: hd.values.map((v) => num(v, 0)).join(" / ") })));
      }
      next = page.next;
      more.disabled = page.next === null || page.next === undefined;
      if (!page.hands.length && reset) table.append(el("tr", {}, el("td", { colspan: 6, class: "muted", text: more.disabled ? "no hand matches these filters" : "no hand matches these filters in the first part of the log: 'more hands' looks further" })));
    } catch (e) { box.append(el("p", { class: "error", text: e.message })); }
  }
  for (const input of Object.values(f)) input.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));
  // a report holds the first --hands hands only: its list and filters say so (a filter matching later hands said "no hand matches")
  const kept = EMB ? ((EMB.hands || {})[key] || { hands: [] }).hands.length : null;
  const partial = kept !== null && doc.hands > kept
    ? el("p", { class: "muted", "data-testid": "report-hands", text: `this report holds the first ${kept.toLocaleString("en-US")} of ${Number(doc.hands).toLocaleString("en-US")} hands (showdown report --hands); the list and its filters cover those` }) : null;
  fill(box, el("h2", { text: "Hands" }), partial, el("div", { class: "filters" }, Object.values(f)), table, more);
  load(true);
}

// ---------------------------------------------------------------- replayer

async function handPage(key, offset) {
  const hand = await api("hand", { key, offset });
  setCrumbs([["matches", "#/"], [key, "#/match/" + enc(key)], [`hand ${hand.hand}`, null]]);
  let i = hand.steps.length - 1 ? 0 : 0;
  const view = el("div", { id: "replay" });
  const prev = el("button", { "data-testid": "prev", text: "\u25C0 back" }), nxt = el("button", { "data-testid": "next", text: "forward \u25B6" });
  const first = el("button", { text: "\u00AB start" }), last = el("button", { text: "end \u00BB" });
  const go = (k) => { i = Math.max(0, Math.min(hand.steps.length - 1, k)); draw(); };
  prev.onclick = () => go(i - 1); nxt.onclick = () => go(i + 1); first.onclick = () => go(0); last.onclick = () => go(hand.steps.length - 1);
  const keys = (ev) => { if (ev.key === "ArrowRight") go(i + 1); else if (ev.key === "ArrowLeft") go(i - 1); else if (ev.key === "Home") go(0); else if (ev.key === "End") go(hand.steps.length - 1); };
  document.addEventListener("keydown", keys);
  cleanup.push(() => document.removeEventListener("keydown", keys));
  function draw() {
    const st = hand.steps[i], end = i === hand.steps.length - 1;
    const seats = hand.players.map((name, p) => el("div", { class: `seat${st.to_act === p ? " acting" : ""}${st.folded[p] ? " folded" : ""}`, "data-position": p },
      el("div", {}, el("b", { text: name }), el("span", { class: "muted", text: ` position ${p}` })),
      el("div", {}, cards(hand.hole[p], true)),
      el("div", { class: "muted", text: `in the pot: ${st.spent[p]}${hand.stacks ? `, stack ${hand.stacks[p] - st.spent[p]}` : ""}` }),
      end ? el("div", { class: signClass(hand.values[p]), "data-testid": "result", text: `result ${num(hand.values[p], 0)}` }) : null));
    const log = el("ol", { class: "steps", "data-testid": "steps" }, hand.steps.slice(1).map((s, k) => el("li", { class: k + 1 === i ? "current" : "", text: `${hand.players[s.actor]} ${s.text}` })));
    fill(view, 
      el("h1", { text: `Hand ${hand.hand} (${hand.game})` }),
      el("div", { class: "panel" }, el("div", {}, seats), el("div", { class: "board", "data-testid": "board" }, "board: ", st.board.join("") ? cards(st.board.join("")) : el("span", { class: "muted", text: "none yet" }), `   pot ${st.pot}`)),
      el("div", {}, first, " ", prev, " ", el("span", { "data-testid": "step", text: `step ${i} of ${hand.steps.length - 1}` }), " ", nxt, " ", last, el("span", { class: "muted", text: "   keys: \u2190 \u2192 Home End" })),
      el("h2", { text: "Actions" }), log,
      hand.events && hand.events.length ? el("p", { class: "error", text: "dealer events: " + hand.events.map((e) => e.kind).join(", ") }) : null);
    prev.disabled = i === 0; nxt.disabled = end;
  }
  fill(main, view);
  draw();
}

// ---------------------------------------------------------------- tournament

async function tournamentPage(key) {
  const t = await api("tournament", { key });
  setCrumbs([["matches", "#/"], [`tournament ${key}`, null]]);
  const labels = t.agents.map((a) => a.label);
  const pageOf = {};
  for (const m of t.matches || []) if (m.pages && m.pages.length) { const [a, b] = m.agents; pageOf[`${a}|${b}`] = pageOf[`${b}|${a}`] = m.pages[0]; }
  const cells = labels.flatMap((a) => labels.map((b) => (a === b ? null : t.cross_table[a][b])).filter((e) => e));
  const d = digitsFor(cells.map((e) => [e.per100, halfWidth(e.ci95)]));
  const field = digitsFor((t.ranking || []).filter((r) => r.vs_field).map((r) => [r.vs_field.per100, halfWidth(r.vs_field.ci95)]));
  const runoff = digitsFor((t.ranking || []).filter((r) => r.runoff).map((r) => [r.runoff.per100, halfWidth(r.runoff.ci95)]));
  const cell = (e, a, b) => {
    if (!e) return el("td", { class: "muted", text: "-" });
    const cls = e.significant ? (e.per100 > 0 ? "cell-sig-pos" : "cell-sig-neg") : e.per100 > 0 ? "cell-pos" : e.per100 < 0 ? "cell-neg" : "";
    const hw = e.ci95 ? (e.ci95[1] - e.ci95[0]) / 2 : null;
    const td = el("td", { class: cls + (pageOf[`${a}|${b}`] ? " clickable" : ""), "data-row": a, "data-col": b, "data-significant": e.significant ? "yes" : "no", text: `${num(e.per100, d)}${hw !== null ? " \u00B1" + hw.toFixed(d) : ""}${e.significant ? "*" : ""}` });
    if (pageOf[`${a}|${b}`]) td.addEventListener("click", () => { location.hash = "#/match/" + enc(pageOf[`${a}|${b}`]); });
    return td;
  };
  const cross = el("table", { "data-testid": "cross-table" }, el("tr", {}, el("th", { text: "row vs column, chips/100" }), labels.map((l) => el("th", { text: l }))),
    labels.map((a) => el("tr", {}, el("td", { text: a }), labels.map((b) => (a === b ? el("td", { class: "muted", text: "" }) : cell(t.cross_table[a][b], a, b))))));
  const ranking = el("table", { "data-testid": "ranking" }, el("tr", {}, ["rank", "agent", "vs field /100", "95% CI", "runoff /100"].map((h) => el("th", { text: h }))),
    (t.ranking || []).map((r) => el("tr", {}, el("td", { text: r.rank ?? "" }), el("td", { text: r.agent }), el("td", { text: r.vs_field ? num(r.vs_field.per100, field) : "" }), el("td", { text: r.vs_field ? ci(r.vs_field.ci95, field) : "" }), el("td", { text: r.runoff ? num(r.runoff.per100, runoff) : "" }))));
  const ratings = (t.ratings || []).length ? el("table", {}, el("tr", {}, Object.keys(t.ratings[0]).map((h) => el("th", { text: h }))), t.ratings.map((r) => el("tr", {}, Object.values(r).map((v) => el("td", { text: typeof v === "number" ? v.toFixed(1) : Array.isArray(v) ? v.map((x) => Number(x).toFixed(0)).join(" .. ") : String(v) }))))) : null;
  const matches = el("ul", { class: "plain" }, (t.matches || []).map((m) => el("li", {}, m.pages && m.pages.length ? el("a", { href: "#/match/" + enc(m.pages[0]), text: `${m.id}: ${m.agents.join(" vs ")}` }) : `${m.id}: ${m.agents.join(" vs ")} (logs not here)`, el("span", { class: "muted", text: ` ${m.hands} hands, ${m.estimator}` }))));
  fill(main, el("h1", { text: `Tournament: ${t.game}, ${t.hands_per_match} hands per match${t.duplicate ? ", duplicate" : ""}` }),
    el("p", { class: "muted", text: t.ranking_method }), el("h2", { text: "Ranking" }), ranking, el("h2", { text: "Cross table" }),
    el("p", { class: "muted", text: "* the 95% interval excludes zero; strong colours are significant" }), cross,
    ratings ? el("h2", { text: "Ratings" }) : null, ratings, el("h2", { text: "Matches" }), matches);
}

// ---------------------------------------------------------------- the human seat

async function playPage() {
  setCrumbs([["play", null]]);
  const token = new URLSearchParams(location.search).get("token") || "";
  const status = el("p", { class: "muted", "data-testid": "status", text: "connecting…" });
  const table = el("div", { class: "panel", id: "table" });
  const actions = el("div", { class: "actions", "data-testid": "actions" });
  const score = el("div", { class: "panel", "data-testid": "score" });
  const history = el("div", {});
  fill(main, el("h1", { text: "Your seat" }), status, table, actions, score, history);
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/play/ws?token=${enc(token)}`);
  cleanup.push(() => ws.close());
  let over = false;  // the match ended: its last word stays on the page
  ws.onclose = () => { if (!over) status.textContent = "disconnected from the table"; fill(actions, ); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    over = over || Boolean(msg.over);
    if (msg.error) { status.className = "error"; status.textContent = msg.error; return; }
    status.className = "muted";
    status.textContent = msg.message || "";
    if (msg.view) drawTable(msg.view);
    drawActions(msg.view, ws);
    if (msg.score) drawScore(msg.score);
    if (msg.last) drawHistory(msg.last);
  };
  function drawTable(v) {
    const seats = v.names.map((name, p) => el("div", { class: `seat${v.to_act === p ? " acting" : ""}${v.folded[p] ? " folded" : ""}` },
      el("div", {}, el("b", { text: p === v.position ? "You" : name }), el("span", { class: "muted", text: ` position ${p}` })),
      el("div", {}, cards(v.hole[p], true)), el("div", { class: "muted", text: `in the pot: ${v.spent[p]}${v.stacks ? `, stack ${v.stacks[p] - v.spent[p]}` : ""}` })));
    fill(table, el("div", { class: "muted", text: `hand ${v.hand + 1}${v.hands ? " of " + v.hands : ""}` }), el("div", {}, seats),
      el("div", { class: "board", "data-testid": "play-board" }, "board: ", v.board ? cards(v.board) : el("span", { class: "muted", text: "none yet" }), `   pot ${v.pot}`),
      el("div", { class: "muted", "data-testid": "betting", text: `betting: ${v.betting || "-"}` }));
  }
  function drawActions(v, socket) {
    fill(actions, );
    if (!v || !v.your_turn) return;
    const send = (a) => { actions.querySelectorAll("button").forEach((b) => { b.disabled = true; }); socket.send(JSON.stringify(a)); };
    const L = v.legal;
    if (L.fold) actions.append(el("button", { "data-action": "f", onclick: () => send({ action: "f" }), text: "Fold" }));
    actions.append(el("button", { "data-action": "c", class: "primary", onclick: () => send({ action: "c" }), text: L.call_amount > 0 ? `Call ${L.call_amount}` : "Check" }));
    if (L.raise) {
      if (L.min !== null && L.min !== undefined && L.max !== L.min) {
        const size = el("input", { type: "number", min: L.min, max: L.max, value: L.min, "data-testid": "raise-size", style: "width:7em" });
        actions.append(el("span", {}, el("button", { "data-action": "r", onclick: () => send({ action: "r", size: Number(size.value) }), text: L.call_amount > 0 ? "Raise to" : "Bet to" }), " ", size, el("span", { class: "muted", text: ` ${L.min} to ${L.max}` })));
      } else {
        actions.append(el("button", { "data-action": "r", onclick: () => send({ action: "r" }), text: L.call_amount > 0 ? "Raise" : "Bet" }));
      }
    }
  }
  function drawScore(s) {
    fill(score, el("b", { text: "Your score: " }), el("span", { "data-testid": "total", text: `${num(s.total, 0)} chips over ${s.hands} hands` }),
      el("span", { class: "muted", text: `   ${num(s.per100)} per 100 hands, 95% CI ${ci(s.ci95)}` }));
  }
  function drawHistory(last) {
    fill(history, el("h2", { text: "Last hands" }), el("table", { "data-testid": "last-hands" }, el("tr", {}, ["hand", "your cards", "theirs", "board", "betting", "you"].map((t) => el("th", { text: t }))),
      last.map((h) => el("tr", {}, el("td", { text: h.hand + 1 }), el("td", {}, cards(h.hole)), el("td", {}, h.others.map((c) => cards(c, true))), el("td", {}, cards(h.board)), el("td", { text: h.betting }), el("td", { class: signClass(h.value), text: num(h.value, 0) })))));
  }
}
