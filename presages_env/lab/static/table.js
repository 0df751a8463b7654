"use strict";
// The table page: one seat's view over a WebSocket, drawn with DOM calls and textContent
// only (no HTML from the server is ever parsed), symbols as inline SVG (no emoji font).
const [, , tableId, token] = location.pathname.split("/");
const SYMBOLS = Object.fromEntries(Array.from(document.querySelectorAll("#symbols svg"))
  .flatMap((svg) => Array.from(svg.dataset.chars).map((char) => [char, svg])));
const SYMBOL_RE = new RegExp("[" + Object.keys(SYMBOLS).join("") + "]", "g");
let hello = null;
let state = null;
let shownAt = 0;
let socket = null;
let retry = 0;
let meaning = {};

function $(id) { return document.getElementById(id); }
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) addText(e, text);
  return e;
}
function addText(parent, text) {
  let at = 0;
  for (const m of String(text).matchAll(SYMBOL_RE)) {
    if (m.index > at) parent.appendChild(document.createTextNode(text.slice(at, m.index)));
    const svg = SYMBOLS[m[0]].cloneNode(true);
    svg.setAttribute("aria-label", meaning[m[0]] || "symbol");
    svg.querySelector("title").textContent = meaning[m[0]] || "";
    parent.appendChild(svg);
    at = m.index + m[0].length;
  }
  if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
}
// A card as the replay page draws it (drawCard of /cards.js, styled by /cards.css).
function card(label) {
  const c = drawCard(state.faces[label], label, addText);
  c.setAttribute("role", "img");
  c.setAttribute("aria-label", label);
  const help = state.help[label];
  if (help) { c.title = help; c.tabIndex = 0; }
  return c;
}
function cardRow(name, labels, hidden) {
  const row = el("div", "row");
  row.appendChild(el("span", "row-label", name));
  const cards = el("div", "cards");
  if (hidden !== undefined) {
    for (let i = 0; i < Math.min(hidden, 20); i++) cards.appendChild(el("span", "card back"));
    cards.appendChild(el("span", "empty", hidden + (hidden === 1 ? " card" : " cards")));
  } else if (!labels.length) {
    cards.appendChild(el("span", "empty", "none"));
  } else {
    labels.forEach((l) => cards.appendChild(card(l)));
  }
  row.appendChild(cards);
  return row;
}
// Each seat's one name as this seat reads it ("P2 · heuristic · partner"), from the server.
function seatName(p) { return state.badges[p]; }

function draw() {
  const view = state.view;
  const over = state.result !== null;
  const mine = state.to_act === hello.seat;
  $("turn").textContent = "";
  addText($("turn"), over ? "The game is over." : mine ? "Your turn: choose a move below."
    : "Waiting for " + seatName(state.to_act) + ".");
  const players = $("players");
  players.replaceChildren();
  view.players.forEach((player, p) => {
    const box = el("div", "seat" + (p === view.to_act ? " to-act" : "") + (p === hello.seat ? " you" : ""));
    const head = el("div", "seat-head");
    head.appendChild(el("span", "name", player.name));
    head.appendChild(el("span", "tag", hello.kinds[p] === "human" ? "person" : "agent: " + hello.kinds[p]));
    box.appendChild(head);
    if (player.notes.length) {
      const tags = el("div", "tags");
      player.notes.forEach((n) => tags.appendChild(el("span", "tag", n)));
      box.appendChild(tags);
    }
    box.appendChild(player.hand === null ? cardRow("hand", [], player.hand_size)
      : cardRow(p === hello.seat ? "your hand" : "hand", player.hand));
    if (player.area.length) box.appendChild(cardRow("in play", player.area));
    players.appendChild(box);
  });
  const center = $("center");
  center.replaceChildren();
  if (view.table.length) view.table.forEach((l) => center.appendChild(card(l)));
  else center.appendChild(el("span", "empty", "nothing on the table"));
  $("status").replaceChildren(...view.status.map((line) => el("li", "", line)));
  drawActions(mine && !over, over);
  const log = $("log");
  log.replaceChildren(...state.log.map((line) => el("li", "", line)));
  log.scrollTop = log.scrollHeight;
  $("result").hidden = !over;
  if (over) {
    $("headline").textContent = "";
    addText($("headline"), state.result.headline);
    $("places").replaceChildren(...state.result.lines.map((line) => el("li", "", line)));
    $("replay").href = "/replay/" + tableId + "/" + token;
    continueStudy();
  }
}
// At a study's table (the study page adds ?study=...&participant=...), the way back to it.
function continueStudy() {
  const query = new URLSearchParams(location.search);
  const study = query.get("study");
  if (!study || $("continue")) return;
  const link = el("a", "", "continue the study");
  link.id = "continue";
  link.href = "/study/" + encodeURIComponent(study) + "?participant="
    + encodeURIComponent(query.get("participant") || "");
  $("result").appendChild(link);
}
function drawActions(mine, over) {
  const box = $("actions");
  box.replaceChildren();
  if (!mine) {
    box.appendChild(el("span", "empty", over ? "no more moves: the game is over" : "not your turn"));
    return;
  }
  shownAt = performance.now();
  state.actions.forEach((a, i) => {
    const b = document.createElement("button");
    b.type = "button";
    if (i < 9) b.appendChild(el("span", "key", String(i + 1)));
    addText(b, a.label);
    b.dataset.action = a.action;
    if (state.help[a.label]) b.title = state.help[a.label];
    b.addEventListener("click", () => send(a.action));
    box.appendChild(b);
  });
  const first = box.querySelector("button");
  if (first && !box.contains(document.activeElement)) first.focus({ preventScroll: true });
}
function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  const reaction = Math.round(performance.now() - shownAt);
  socket.send(JSON.stringify({ type: "move", step: state.step, action: action, reaction_ms: reaction }));
  $("actions").querySelectorAll("button").forEach((b) => { b.disabled = true; });
}
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !/^[1-9]$/.test(event.key)) return;
  const button = $("actions").querySelectorAll("button")[Number(event.key) - 1];
  if (button && !button.disabled) button.click();
});
function onHello(message) {
  hello = message;
  meaning = Object.fromEntries(message.legend);
  document.title = message.title + ": " + message.badge;
  $("title").textContent = "";
  addText($("title"), message.title + " \u2014 you are " + message.badge);
  $("note").textContent = message.idle_rule;
  $("rules").textContent = message.rules;
  $("legend").replaceChildren(...message.legend.flatMap(([symbol, text]) =>
    [el("dt", "", symbol), el("dd", "", text)]));
}
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + tableId + "/" + token);
  socket.addEventListener("open", () => { retry = 0; $("problem").textContent = ""; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") onHello(message);
    else if (message.type === "state") {
      if (state && message.step < state.step) return;  // an older view overtaken by a newer
      state = message;
      draw();
    }
    else if (message.type === "refused" || message.type === "error") {
      $("problem").textContent = "Move not taken: " + message.reason;
      if (state) draw();
    }
  });
  socket.addEventListener("close", () => {
    if (state && state.result !== null) return;
    $("problem").textContent = "Connection lost; reconnecting...";
    retry = Math.min(retry + 1, 10);
    setTimeout(connect, 500 * retry);
  });
}
connect();
