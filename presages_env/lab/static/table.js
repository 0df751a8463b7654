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
let sent = false;  // a move went for this view: no second one until the next
let resultShown = false;

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
// One of the seat's own cards while it is to move: clicking it (or Enter on it) plays the
// move that names it, or offers the moves that do, as a choice under the hand.
function playableCard(label, choice) {
  const c = card(label);
  const moves = state.actions.filter((a) => a.cards.includes(label));
  if (!moves.length) return c;
  c.classList.add("playable");
  c.setAttribute("role", "button");
  c.setAttribute("aria-label", label + ": " + (moves.length === 1 ? moves[0].label
    : moves.length + " moves"));
  c.tabIndex = 0;
  const pick = () => (moves.length === 1 ? send(moves[0].action) : offer(choice, label, moves));
  c.addEventListener("click", pick);
  c.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    pick();
  });
  return c;
}
// The moves that name one card, as buttons under the hand (a pair, a triple; place or discard).
function offer(choice, label, moves) {
  choice.replaceChildren(el("span", "choice-label", "Play " + label + " as:"));
  moves.forEach((a) => choice.appendChild(moveButton(a)));
  const cancel = el("button", "cancel", "cancel");
  cancel.type = "button";
  cancel.addEventListener("click", () => { choice.hidden = true; });
  choice.appendChild(cancel);
  choice.hidden = false;
  choice.querySelector("button").focus({ preventScroll: true });
  choice.scrollIntoView({ block: "nearest" });
}
function cardRow(name, labels, hidden, choice) {
  const row = el("div", "row");
  row.appendChild(el("span", "row-label", name));
  const cards = el("div", "cards");
  if (hidden !== undefined) {
    for (let i = 0; i < Math.min(hidden, 20); i++) cards.appendChild(el("span", "card back"));
    cards.appendChild(el("span", "empty", hidden + (hidden === 1 ? " card" : " cards")));
  } else if (!labels.length) {
    cards.appendChild(el("span", "empty", "none"));
  } else {
    labels.forEach((l) => cards.appendChild(choice ? playableCard(l, choice) : card(l)));
  }
  row.appendChild(cards);
  return row;
}
// Each seat's one name as this seat reads it ("P2 · heuristic · partner"), from the server.
function seatName(p) { return state.badges[p]; }

function seatBox(player, p, playing) {
  const view = state.view;
  const box = el("div", "seat" + (p === view.to_act ? " to-act" : "") + (p === hello.seat ? " you" : ""));
  const head = el("div", "seat-head");
  head.appendChild(el("span", "name", player.name));
  const kind = hello.kinds[p];
  head.appendChild(el("span", "tag", kind === "human" ? "person" : kind === "remote"
    ? "remote agent" : kind === "agent" ? "agent" : "agent: " + kind));
  box.appendChild(head);
  if (player.notes.length) {
    const tags = el("div", "tags");
    player.notes.forEach((n) => tags.appendChild(el("span", "tag", n)));
    box.appendChild(tags);
  }
  const choice = playing ? el("div", "choice") : undefined;
  if (choice) choice.hidden = true;
  box.appendChild(player.hand === null ? cardRow("hand", [], player.hand_size)
    : cardRow(p === hello.seat ? "your hand" : "hand", player.hand, undefined, choice));
  if (player.area.length) box.appendChild(cardRow("in play", player.area, undefined, choice));
  if (choice) box.appendChild(choice);
  return box;
}
function draw() {
  const view = state.view;
  const over = state.result !== null;
  const mine = state.to_act === hello.seat;
  $("turn").textContent = "";
  addText($("turn"), over ? "The game is over." : mine
    ? "Your turn: click a card to play it, or choose a move below."
    : "Waiting for " + seatName(state.to_act) + ".");
  sent = false;
  $("mine").replaceChildren(seatBox(view.players[hello.seat], hello.seat, mine && !over));
  $("players").replaceChildren(...view.players.flatMap((player, p) =>
    (p === hello.seat ? [] : [seatBox(player, p, false)])));
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
  if (over) showResult();
}
// The result, the replay link and the next step, brought into view once when the game ends.
function showResult() {
  $("headline").textContent = "";
  addText($("headline"), state.result.headline);
  $("places").replaceChildren(...state.result.lines.map((line) => el("li", "", line)));
  $("replay").href = "/replay/" + tableId + "/" + token;
  continueStudy();
  if (resultShown) return;
  resultShown = true;
  $("result").scrollIntoView({ block: "start" });
  $("headline").focus({ preventScroll: true });
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
function moveButton(a, i) {
  const b = document.createElement("button");
  b.type = "button";
  if (i !== undefined && i < 9) b.appendChild(el("span", "key", String(i + 1)));
  addText(b, a.label);
  b.dataset.action = a.action;
  if (state.help[a.label]) b.title = state.help[a.label];
  b.addEventListener("click", () => send(a.action));
  return b;
}
function drawActions(mine, over) {
  const box = $("actions");
  box.replaceChildren();
  $("keys").hidden = over;
  if (!mine) {
    box.appendChild(el("span", "empty", over ? "no more moves: the game is over" : "not your turn"));
    return;
  }
  shownAt = performance.now();
  state.actions.forEach((a, i) => box.appendChild(moveButton(a, i)));
  const first = box.querySelector("button");
  if (first && !box.contains(document.activeElement)) first.focus({ preventScroll: true });
}
function send(action) {
  if (sent || !socket || socket.readyState !== WebSocket.OPEN) return;
  sent = true;
  const reaction = Math.round(performance.now() - shownAt);
  socket.send(JSON.stringify({ type: "move", step: state.step, action: action, reaction_ms: reaction }));
  document.querySelectorAll("#actions button, .choice button").forEach((b) => { b.disabled = true; });
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
