// cordon console: the page. Every string from an agent, a tool or the log
// is put in with textContent, never as HTML.
"use strict";

// [answer, label, key, kind, scope]. With a family (item.prefix), "Allow
// for session" and "Allow always" grant it, as cordon's terminal prompt's
// s and a do; the "(exact)" buttons, shown only then, grant the exact
// command. The page sends only the scope: the console derived the words.
const ANSWERS = [
  ["allow_once", "Allow once", "y", "allow", null],
  ["allow_session", "Allow for session", "s", "allow", "prefix"],
  ["allow_always", "Allow always", "a", "allow", "prefix"],
  ["allow_session", "Allow for session (exact)", "e", "allow", "exact"],
  ["allow_always", "Allow always (exact)", "A", "allow", "exact"],
  ["deny_once", "Deny", "n", "deny", null],
  ["deny_session", "Deny for session", "x", "deny", null],
  ["deny_always", "Deny always", "d", "deny", null],
  ["abort", "Abort", "q", "deny", null],
];

// The scope an answer button sends for item: the family only when the
// item has one; null: no scope member (the exact command).
function scopeFor(item, scope) {
  if (scope === "prefix") return item.prefix ? "prefix" : null;
  return scope;
}

// Which buttons item gets: the "(exact)" ones only beside a family; no
// "always" for a call relayed from inside a cordon run's sandbox (the
// console refuses a durable answer there: grants last for that run).
function shown(item, a) {
  if (item.risk === "blocked" && a[3] === "allow") return false;
  if (item.relayed && a[0].endsWith("_always")) return false;
  return a[4] !== "exact" || !!item.prefix;
}

// A family word as a shell would need it written.
function shWord(w) {
  return /^[A-Za-z0-9._\/:=@%+,-]+$/.test(w) ? w : "'" + w + "'";
}
const pending = new Map(); // id -> item

// A card answers (a key, a click on its buttons) only once it has stood in
// its place this long: a card that has just come, or moved because one
// above it went (a command can withdraw its own ask), is "settling" and
// ignores what the user meant for the card that was there.
const GUARD_MS = 700;
let selected = null; // the id the user picked (a click on the card)

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

async function api(path, body) {
  const opt = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, opt);
  if (r.status === 401) {
    document.getElementById("login-needed").hidden = false;
    throw new Error("not logged in");
  }
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
  return j;
}

function pill(risk) {
  return el("span", "pill " + (risk || "none"), risk || "no tier");
}

function chips(parent, names) {
  for (const n of names || []) parent.appendChild(el("span", "chip", n));
}

function card(item) {
  const c = el("div", "card " + (item.risk || ""));
  c.dataset.id = item.id;
  c.tabIndex = 0;
  const head = el("div", "card-head");
  head.appendChild(pill(item.risk));
  head.appendChild(el("span", "tool", item.tool));
  head.appendChild(el("span", "chip", item.kind));
  head.appendChild(el("span", "chip sandboxed",
                      "sandboxed: " + (item.sandboxed || "unknown")));
  const meta = el("span", "meta", "");
  meta.dataset.expires = String(Date.now() + (item.expiresInMs || 0));
  head.appendChild(meta);
  c.appendChild(head);
  const who = el("div", "meta",
                 "from " + item.door + (item.session ? " · session " + item.session : ""));
  c.appendChild(who);
  if (item.relayed) {
    const rel = el("div", "relayed", "from inside the sandbox of ");
    rel.appendChild(el("code", null, item.relayed.command));
    rel.appendChild(document.createTextNode(
      " (run " + item.relayed.run.slice(0, 8) + "): grants last for this run; " +
      (item.risk ? "the tier and labels are the run's own reading of the command"
                 : "no tier: the run had no command to judge")));
    c.appendChild(rel);
  }
  if (item.command !== null && item.command !== undefined)
    c.appendChild(el("pre", "command", item.command));
  else
    c.appendChild(el("pre", "args", JSON.stringify(item.args, null, 2)));
  if (item.path) c.appendChild(el("div", "path", "path: " + item.path));
  const labels = el("div", "labels");
  chips(labels, item.labels);
  c.appendChild(labels);
  for (const r of item.reasons || []) c.appendChild(el("div", "reason", r));
  if (item.segments && item.segments.length > 1) {
    const ul = el("ul", "segments");
    for (const s of item.segments) {
      const li = el("li");
      li.appendChild(pill(s.risk));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("code", null, s.text));
      if (s.labels && s.labels.length)
        li.appendChild(document.createTextNode(" — " + s.labels.join(", ")));
      ul.appendChild(li);
    }
    c.appendChild(ul);
  }
  if (item.exactOnly)
    c.appendChild(el("div", "exact",
                     "exact command only: a grant covers this exact command, never a prefix"));
  if (item.prefix) {
    const f = el("div", "family", "Allow for session / Allow always cover ");
    f.appendChild(el("code", null, item.prefix.map(shWord).join(" ") + " …"));
    f.appendChild(document.createTextNode(
      " (commands starting with these words; destructive ones still ask)." +
      " The (exact) buttons cover this exact command only."));
    c.appendChild(f);
  } else if (item.command !== null && item.command !== undefined &&
             !item.exactOnly && item.prefixRefused) {
    c.appendChild(el("div", "family",
                     "a grant covers this exact command only: " + item.prefixRefused));
  }
  const b = el("div", "buttons");
  for (const a of ANSWERS) {
    if (!shown(item, a)) continue;
    const [name, label, key, kind, scope] = a;
    const btn = el("button", kind, label);
    btn.type = "button";
    btn.dataset.answer = name;
    const sc = scopeFor(item, scope);
    if (sc) btn.dataset.scope = sc;
    btn.title = "key: " + key;
    btn.addEventListener("click", () => {
      if (steady(c)) answer(item.id, name, sc);
    });
    b.appendChild(btn);
  }
  c.appendChild(b);
  c.addEventListener("click", ev => {
    if (ev.target.closest("button")) return;
    selected = selected === item.id ? null : item.id;
    markTarget();
  });
  return c;
}

// Whether card c has stood in its place GUARD_MS.
function steady(c) {
  return !!c && Date.now() - Number(c.dataset.placed) >= GUARD_MS;
}

// Card c has just come or moved: settling (shown) for GUARD_MS.
function placed(c, pos) {
  const at = Date.now();
  c.dataset.pos = String(pos);
  c.dataset.placed = String(at);
  c.classList.add("settling");
  setTimeout(() => {
    if (c.dataset.placed === String(at)) c.classList.remove("settling");
  }, GUARD_MS);
}

// The card the keys answer: the one the user picked, else the first (the
// host's come first).
function keyTarget() {
  return (selected && document.querySelector(`.card[data-id="${CSS.escape(selected)}"]`)) ||
         document.querySelector("#cards .card, #relayed-cards .card");
}

function markTarget() {
  const t = keyTarget();
  for (const c of document.querySelectorAll("#approvals .card")) {
    c.classList.toggle("target", c === t);
    c.classList.toggle("picked", c.dataset.id === selected);
  }
}

// The host's cards, then (their own section, below) those relayed from
// inside a cordon run's sandbox, each list by age.
function renderCards() {
  const items = [...pending.values()].sort((a, b) => a.created - b.created);
  const have = new Map([...document.querySelectorAll("#approvals .card")]
                         .map(c => [c.dataset.id, c]));
  for (const [id, c] of have) if (!pending.has(id)) c.remove();
  if (selected && !pending.has(selected)) selected = null;
  let pos = 0;
  for (const [box, list] of [["cards", items.filter(it => !it.relayed)],
                             ["relayed-cards", items.filter(it => it.relayed)]]) {
    const b = document.getElementById(box);
    list.forEach((it, i) => {
      const c = have.get(it.id) || card(it);
      if (b.children[i] !== c) b.insertBefore(c, b.children[i] || null);
      if (c.dataset.pos !== String(pos)) placed(c, pos);
      pos++;
    });
    document.getElementById(box + "-head").hidden = list.length === 0;
  }
  markTarget();
  document.getElementById("pending-count").textContent = String(items.length);
  document.getElementById("no-pending").hidden = items.length > 0;
}

async function answer(id, name, scope) {
  const body = { answer: name };
  if (scope) body.scope = scope;
  try {
    await api("/api/approvals/" + encodeURIComponent(id), body);
  } catch (e) { /* gone or answered elsewhere: the event removes it */ }
  pending.delete(id);
  renderCards();
}

function tick() {
  for (const m of document.querySelectorAll(".card .meta[data-expires]")) {
    const s = Math.max(0, Math.round((Number(m.dataset.expires) - Date.now()) / 1000));
    m.textContent = s + " s left";
  }
}

async function loadPending() {
  const j = await api("/api/approvals/pending");
  pending.clear();
  for (const it of j.pending) pending.set(it.id, it);
  renderCards();
}

function listen() {
  const es = new EventSource("/api/events");
  const conn = document.getElementById("conn");
  es.onopen = () => { conn.textContent = "live"; loadPending().catch(() => {}); };
  es.onerror = () => { conn.textContent = "reconnecting…"; };
  es.addEventListener("pending", ev => {
    const it = JSON.parse(ev.data);
    pending.set(it.id, it);
    renderCards();
  });
  for (const name of ["answered", "timed_out", "gone"]) {
    es.addEventListener(name, ev => {
      pending.delete(JSON.parse(ev.data).id);
      renderCards();
      loadAudit().catch(() => {});
    });
  }
  es.addEventListener("decision", () => loadAudit().catch(() => {}));
}

document.addEventListener("keydown", ev => {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey))
    return;
  if (ev.key === "Escape" && selected) {
    selected = null;
    markTarget();
    return;
  }
  const target = keyTarget();
  if (!target) return;
  const a = ANSWERS.find(x => x[2] === ev.key);
  if (!a) return;
  const item = pending.get(target.dataset.id);
  if (!item || !shown(item, a)) return;
  ev.preventDefault();
  if (steady(target)) answer(item.id, a[0], scopeFor(item, a[4]));
});

let tryTimer = null;
function tryCommand() {
  clearTimeout(tryTimer);
  tryTimer = setTimeout(async () => {
    const cmd = document.getElementById("try").value;
    const out = document.getElementById("try-result");
    if (!cmd.trim()) { out.replaceChildren(); return; }
    try {
      const v = await api("/api/classify", { command: cmd });
      if (document.getElementById("try").value !== cmd) return;
      const head = el("div", "card-head");
      head.appendChild(pill(v.risk));
      const labels = el("span", "labels");
      chips(labels, v.labels);
      head.appendChild(labels);
      const list = el("ul", "segments");
      for (const r of v.reasons || []) list.appendChild(el("li", null, r));
      out.replaceChildren(head, list);
    } catch (e) { out.replaceChildren(el("div", "reason", e.message)); }
  }, 120);
}

function pretty(v) { return JSON.stringify(v, null, 2) || "(none)"; }

async function loadPins() {
  const box = document.getElementById("pin-list");
  let j;
  try { j = await api("/api/mcp/pins"); } catch (e) {
    box.replaceChildren(el("p", "empty", e.message)); return;
  }
  if (!j.pending.length) { box.replaceChildren(el("p", "empty", "No tool is waiting for approval.")); return; }
  const nodes = [];
  for (const p of j.pending) {
    const c = el("div", "card caution");
    const head = el("div", "card-head");
    head.appendChild(el("span", "tool", p.server + " / " + p.tool));
    head.appendChild(el("span", "chip", p.reason));
    chips(head, p.flags);
    c.appendChild(head);
    const a = pretty(p.approved).split("\n"), b = pretty(p.pending).split("\n");
    const diff = el("div", "diff");
    for (const [title, lines, other] of [["approved", a, b], ["new version", b, a]]) {
      const col = el("div");
      col.appendChild(el("div", "meta", title));
      const pre = el("pre");
      lines.forEach((line, i) => {
        const span = el("span", line !== other[i] ? "changed" : "", line);
        pre.appendChild(span);
        if (line === other[i]) pre.appendChild(document.createTextNode("\n"));
      });
      col.appendChild(pre);
      diff.appendChild(col);
    }
    c.appendChild(diff);
    const btn = el("button", "allow", "Accept new version");
    btn.type = "button";
    btn.addEventListener("click", async () => {
      try { await api("/api/mcp/pins", { server: p.server, tool: p.tool }); } catch (e) {}
      loadPins();
    });
    const bs = el("div", "buttons");
    bs.appendChild(btn);
    c.appendChild(bs);
    nodes.push(c);
  }
  box.replaceChildren(...nodes);
}

async function loadAudit() {
  const j = await api("/api/audit?limit=50");
  const chain = document.getElementById("chain");
  const v = j.verify;
  if (!v.exists) { chain.className = "chain"; chain.textContent = "No log yet at " + j.path; }
  else if (v.error) { chain.className = "chain broken"; chain.textContent = "cannot verify: " + v.error; }
  else if (v.intact) {
    chain.className = "chain intact";
    chain.textContent = "chain intact: " + v.records + " records, head " + String(v.head).slice(0, 16) + "…";
  } else {
    chain.className = "chain broken";
    chain.textContent = "chain BROKEN at line " + v.badLine + ": " + v.why;
  }
  const rows = [];
  for (const r of j.records) {
    const tr = el("tr");
    const d = r.decision || "";
    for (const [text, cls] of [[r.ts || r.time || "", ""], [r.event || "", ""],
                               [r.tool || "", ""], [d, d], [r.step || "", ""],
                               [r.reason || "", ""]]) {
      const td = el("td", cls, text);
      td.title = String(text);
      tr.appendChild(td);
    }
    rows.push(tr);
  }
  document.querySelector("#audit-table tbody").replaceChildren(...rows);
}

async function loadStatus() {
  const j = await api("/api/status");
  const dl = document.getElementById("status-list");
  const rows = [["backend", j.sandbox.backend || "none"], ["enforcement", j.sandbox.enforcement],
                ["probe", j.sandbox.probe], ["broker socket", j.socket],
                ["audit log", j.auditLog], ["answer within", j.timeoutS + " s"],
                ["version", j.version]];
  const nodes = [];
  for (const [k, v] of rows) { nodes.push(el("dt", null, k)); nodes.push(el("dd", null, v)); }
  dl.replaceChildren(...nodes);
  document.getElementById("sandbox-chip").textContent =
    "sandbox: " + (j.sandbox.backend || "none") + " (" + j.sandbox.enforcement + ")";
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("try").addEventListener("input", tryCommand);
  setInterval(tick, 1000);
  loadPending().then(() => {
    listen();
    loadAudit().catch(() => {});
    loadPins().catch(() => {});
    loadStatus().catch(() => {});
  }).catch(() => {});
});
