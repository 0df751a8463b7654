"use strict";
// A study participant's page: consent, then each game (the page sends them to their table),
// the questions after it, until the study is done. Their id comes in the URL; consent gives
// them a key, kept in this browser (and in the page's address, after #), which every later
// call carries: coming back with it resumes where they left.
const studyId = location.pathname.split("/")[2];
const participant = new URLSearchParams(location.search).get("participant") || "";
const api = "/api/study/" + encodeURIComponent(studyId) + "/" + encodeURIComponent(participant);
const keyName = "presages-study-key:" + studyId + ":" + participant;
let key = new URLSearchParams(location.hash.slice(1)).get("key") || "";
function keep(given) {  // a key from consent, or from the study's owner (#key=...)
  key = given;
  history.replaceState(null, "", location.pathname + location.search + "#key=" + key);
  try { localStorage.setItem(keyName, key); } catch (e) { /* storage off: the address keeps it */ }
}
if (key) keep(key);
else try { key = localStorage.getItem(keyName) || ""; } catch (e) { key = ""; }
function $(id) { return document.getElementById(id); }
function el(tag, text) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}
async function call(path, body) {
  const headers = key ? { Authorization: "Bearer " + key } : {};
  const options = body === undefined ? { method: "GET", headers }
    : { method: "POST", body: JSON.stringify(body), headers: { ...headers, "Content-Type": "application/json" } };
  const response = await fetch(api + path, options);
  const answer = await response.json();
  if (!response.ok) { $("problem").textContent = answer.error; return null; }
  $("problem").textContent = "";
  if (answer.key) keep(answer.key);
  return answer;
}
function draw(now) {
  if (!now) return;
  const box = $("stage");
  box.replaceChildren();
  $("name").textContent = now.name;
  if (now.games) $("note").textContent = "game " + now.game + " of " + now.games;
  if (now.stage === "consent") {
    box.appendChild(el("h2", "Consent"));
    const text = el("p", now.consent);
    text.id = "consent";
    text.className = "pre-line";
    const agree = el("button", "I agree: start");
    agree.id = "agree";
    agree.addEventListener("click", async () => draw(await call("/consent", {})));
    box.append(text, agree);
  } else if (now.stage === "play" && !now.link) {
    // a link is issued by a POST (it deals the game if due and voids any older link)
    call("/play", {}).then(draw);
  } else if (now.stage === "play") {
    box.appendChild(el("p", "Your game is ready; taking you to your table..."));
    location.assign(now.link);
  } else if (now.stage === "questionnaire") {
    box.appendChild(el("h2", "A few questions about the game you just played"));
    const form = el("form");
    now.questions.forEach((question, i) => {
      const label = el("label", question);
      const field = el("textarea");
      field.rows = 3;
      field.maxLength = 2000;
      field.className = "answer";
      field.id = "answer-" + i;
      label.appendChild(el("br"));
      label.appendChild(field);
      form.appendChild(label);
    });
    const send = el("button", "send my answers");
    send.type = "submit";
    form.appendChild(send);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answers = Array.from(form.querySelectorAll(".answer")).map((f) => f.value);
      draw(await call("/answers", { game: now.game - 1, answers }));
    });
    box.appendChild(form);
  } else {
    const done = el("h2", "Thank you: the study is complete.");
    done.id = "done";
    box.appendChild(done);
  }
}
call("").then(draw);
