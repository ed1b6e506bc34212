// rummyref dashboard: live updates over server-sent events, and the card picker.
"use strict";

function startLive() {
  const region = document.getElementById("live");
  if (!region || !window.EventSource) return;
  const text = document.getElementById("live-text");
  const status = document.querySelector(".live-status");
  let source;
  let busy = false;
  let again = false;

  function editing() {
    const focused = document.activeElement;
    if (focused && region.contains(focused) && focused.matches("input, select, textarea")) return true;
    return Array.from(region.querySelectorAll("input, select, textarea")).some((field) =>
      field.type === "radio" || field.type === "checkbox" ? field.checked !== field.defaultChecked
        : field.type !== "hidden" && field.value !== field.defaultValue);
  }

  async function refresh() {
    if (busy) { again = true; return; }
    // someone is filling in a form of the region (a tournament result, a PIN): the update waits
    if (editing()) {
      text.textContent = "update waits for your form";
      setTimeout(refresh, 1000);
      return;
    }
    busy = true;
    try {
      const response = await fetch(region.dataset.src, { headers: { "X-Requested-With": "live" } });
      if (response.ok) {
        region.innerHTML = await response.text();
        text.textContent = "live";
        region.classList.remove("flash"); void region.offsetWidth; region.classList.add("flash");
      }
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  function connect() {
    source = new EventSource(region.dataset.stream + "?since=" + encodeURIComponent(region.dataset.last));
    source.addEventListener("open", () => { status.classList.remove("down"); text.textContent = "live"; });
    source.addEventListener("update", (message) => {
      const data = JSON.parse(message.data);
      if (data.last_event > Number(region.dataset.last)) {
        region.dataset.last = data.last_event;
        refresh();
      }
    });
    source.addEventListener("error", () => { status.classList.add("down"); text.textContent = "reconnecting…"; });
  }
  connect();
}

function startPicker() {
  const form = document.getElementById("scorer");
  if (!form) return;
  const picker = form.querySelector(".picker");
  const copies = Number(picker.dataset.copies || 1);
  const jokers = Number(picker.dataset.jokers || 0);
  const inputs = Array.from(form.querySelectorAll(".hand-codes"));
  const seats = Array.from(form.querySelectorAll(".seat"));
  let current = seats.length ? seats[0].dataset.seat : null;

  const codes = (input) => input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
  const limit = (card) => (card === "JK" ? jokers : copies);
  const deckOf = (name) => form.elements[name].dataset.deck;
  // each table of a partnership plays its own deck: a card is unique within one deck only
  const sameDeck = () => inputs.filter((input) => input.dataset.deck === deckOf(current));
  const count = (list, card) => list.filter((code) => code === card).length;

  function paint() {
    const mine = codes(form.elements[current]);
    const others = sameDeck().filter((input) => input.name !== current).flatMap(codes);
    form.querySelectorAll(".pick").forEach((button) => {
      const card = button.dataset.card;
      const held = count(mine, card);
      button.classList.toggle("mine", held > 0);
      // greyed once every copy of the card is in another hand of this deck
      button.classList.toggle("theirs", held === 0 && count(others, card) >= limit(card));
      button.classList.toggle("gone", limit(card) === 0);
      button.dataset.held = held > 1 ? "×" + held : "";
      button.setAttribute("aria-pressed", held > 0 ? "true" : "false");
    });
    seats.forEach((seat) => {
      seat.classList.toggle("on", seat.dataset.seat === current);
      seat.querySelector(".count").textContent = codes(form.elements[seat.dataset.seat]).length;
    });
  }

  // a tap adds a copy while the deck has one left; then takes the card back (or, if every
  // copy is in another hand, moves one over to this player)
  function tap(card) {
    const own = form.elements[current];
    const mine = codes(own);
    const deck = sameDeck();
    const total = deck.flatMap(codes).filter((code) => code === card).length;
    if (total < limit(card)) {
      mine.push(card);
    } else if (mine.includes(card)) {
      mine.splice(0, mine.length, ...mine.filter((code) => code !== card));
    } else {
      const holder = deck.find((input) => codes(input).includes(card));
      if (!holder) return;
      const theirs = codes(holder);
      theirs.splice(theirs.indexOf(card), 1);
      holder.value = theirs.join(" ");
      mine.push(card);
    }
    own.value = mine.join(" ");
    paint();
  }

  seats.forEach((seat) => seat.addEventListener("click", () => { current = seat.dataset.seat; paint(); }));
  form.querySelectorAll(".pick").forEach((button) => button.addEventListener("click", () => tap(button.dataset.card)));
  inputs.forEach((input) => input.addEventListener("input", paint));
  paint();
}

// Tile Rummy's turn timer: the server says when the turn began and what time it was when the
// page was made, so every phone counts down from the same moment whatever its own clock says.
function tickTimers() {
  document.querySelectorAll(".timer").forEach((timer) => {
    if (timer.dataset.offset === undefined) timer.dataset.offset = Number(timer.dataset.now) - Date.now();
    const clock = timer.querySelector(".clock");
    const seconds = Number(timer.dataset.seconds);
    if (!timer.dataset.started) { timer.classList.remove("late", "over"); return; }
    const elapsed = (Date.now() + Number(timer.dataset.offset) - Number(timer.dataset.started)) / 1000;
    const left = Math.max(0, Math.ceil(seconds - elapsed));
    clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    timer.classList.toggle("late", left > 0 && left <= 20);
    timer.classList.toggle("over", left === 0);
  });
}

// Set-up: show the fields of the chosen game only (all of them show without JavaScript).
function startSetup() {
  const game = document.getElementById("game");
  if (!game) return;
  const show = () => document.querySelectorAll("[data-for]").forEach((part) => {
    part.hidden = !part.dataset.for.split(" ").includes(game.value);
  });
  game.addEventListener("change", show);
  show();
}

// Evidence photos: a tap zooms in (a phone's width is too small to read the marks); the marks
// of what was read can be hidden to look at the bare photo. Delegated, so photos inside live
// regions (replaced on each update) work too.
function startOverlayToggles() {
  document.addEventListener("click", (event) => {
    const zoom = event.target.closest(".evidence-photo .photo");
    if (zoom) zoom.classList.toggle("zoomed");
    const button = event.target.closest(".overlay-toggle");
    if (!button) return;
    const photo = button.closest(".evidence-photo").querySelector(".photo");
    const bare = photo.classList.toggle("bare");
    button.setAttribute("aria-pressed", bare ? "false" : "true");
    button.textContent = bare ? "Show marks" : "Hide marks";
  });
}

// Camera page: the newest frame about once a second, with the markers, zones and corners the
// server found on it drawn over it; "tap the 4 corners" turns the next four taps into corners.
function startCamera() {
  const box = document.getElementById("camera");
  if (!box) return;
  const img = document.getElementById("camera-frame");
  const svg = document.getElementById("camera-marks");
  const state = document.getElementById("camera-state");
  const refereeState = document.getElementById("referee-state");
  const refereeChanges = document.getElementById("referee-changes");
  const field = document.getElementById("corners-field");
  const hint = document.getElementById("tap-hint");
  const NAMES = ["top left", "top right", "bottom right", "bottom left"];
  const NS = "http://www.w3.org/2000/svg";
  let taps = null;   // null: not tapping; else the points tapped so far (frame pixels)
  let view = null;
  let frames = 0;

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    Object.entries(attrs).forEach(([key, value]) => node.setAttribute(key, value));
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
  }
  const pts = (points) => points.map((p) => p.join(",")).join(" ");

  function draw() {
    svg.textContent = "";
    if (!view) return;
    const [w, h] = view.size;
    const r = Math.max(w, h) / 120;
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.style.setProperty("--text", `${Math.max(w, h) / 40}px`);
    svg.style.setProperty("--line", `${Math.max(w, h) / 400}px`);
    view.zones.forEach((z) => { el("polygon", { points: pts(z.points), class: "zone" }); });
    if (view.corners && !taps) el("polygon", { points: pts(view.corners), class: "corners" });
    view.markers.forEach((m) => {
      el("circle", { cx: m.x, cy: m.y, r: r, class: "marker" });
      el("text", { x: m.x + r * 1.4, y: m.y - r * 1.4, class: "marker" }, String(m.id));
    });
    (taps || []).forEach((p, i) => {
      el("circle", { cx: p[0], cy: p[1], r: r, class: "tap" });
      el("text", { x: p[0] + r * 1.4, y: p[1] - r * 1.4, class: "tap" }, String(i + 1));
    });
    if (taps && taps.length > 1) el("polyline", { points: pts(taps), class: "tap" });
  }

  // what the referee made of its frames: its own state and the moves it noticed, newest first
  function showReferee(referee) {
    if (!referee) { refereeState.textContent = "the referee has not read a frame yet"; return; }
    refereeState.textContent = `referee: ${referee.state}: ${referee.message}`;
    refereeState.dataset.state = referee.state;
    refereeChanges.textContent = "";
    referee.changes.slice().reverse().forEach((change) => {
      const item = document.createElement("li");
      const when = new Date(change.at * 1000).toLocaleTimeString();
      item.textContent = `${when} (frame ${change.frame}) ${change.state}: ${change.message}`;
      refereeChanges.appendChild(item);
    });
  }

  async function refresh() {
    try {
      const response = await fetch(box.dataset.view, { cache: "no-store" });
      if (response.ok) {
        view = await response.json();
        state.textContent = `this frame: ${view.state}: ${view.message}`;
        state.dataset.state = view.state;
        showReferee(view.referee);
      } else {
        state.textContent = (await response.json()).message;
      }
    } catch (error) { state.textContent = "the dashboard cannot be reached"; }
    draw();
  }

  // the next frame loads once the last one has (no pile-up on a slow network)
  function loaded() {
    refresh();
    setTimeout(() => { img.src = box.dataset.frame + "?n=" + (++frames); }, 800);
  }
  img.addEventListener("load", loaded);
  if (img.complete && img.naturalWidth) loaded();  // the first frame came before this script ran
  img.addEventListener("error", () => {
    setTimeout(() => { img.src = box.dataset.frame + "?n=" + (++frames); }, 2000);
    refresh();
  });

  document.getElementById("tap-corners").addEventListener("click", () => {
    taps = [];
    hint.textContent = "tap the " + NAMES[0];
    draw();
  });
  svg.parentElement.addEventListener("click", (event) => {
    if (!taps || !view) return;
    const box = img.getBoundingClientRect();
    const [w, h] = view.size;
    const x = ((event.clientX - box.left) / box.width) * w;
    const y = ((event.clientY - box.top) / box.height) * h;
    taps.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    if (taps.length === 4) {
      field.value = JSON.stringify(taps);
      hint.textContent = "four corners tapped: save them with the PIN";
      draw();
      taps = null;
      return;
    }
    hint.textContent = "tap the " + NAMES[taps.length];
    draw();
  });
}

// Deck learning: follow the run until it is done or failed.
function startDeckJob() {
  const box = document.getElementById("deck-job");
  if (!box || box.dataset.state !== "running") return;
  async function poll() {
    let job;
    try {
      const response = await fetch(box.dataset.src, { cache: "no-store" });
      job = await response.json();
      if (!response.ok) throw new Error(job.message);
    } catch (error) { setTimeout(poll, 2000); return; }
    const lines = box.querySelector(".job-lines");
    lines.textContent = "";
    job.lines.forEach((line) => { const item = document.createElement("li"); item.textContent = line; lines.appendChild(item); });
    if (job.state === "running") { setTimeout(poll, 700); return; }
    box.dataset.state = job.state;
    box.className = "deck-job " + job.state;
    box.querySelector(".job-state").textContent = job.state === "done" ? `✔ learned in ${job.seconds.toFixed(1)} s` : "✖ not learned";
    if (job.error) { const error = box.querySelector(".job-error"); error.textContent = job.error; error.hidden = false; }
    box.querySelector(".job-help").hidden = job.state !== "failed";
    if (job.result) { box.querySelector(".job-path").textContent = job.result.path; box.querySelector(".job-done").hidden = false; }
  }
  poll();
}

document.addEventListener("DOMContentLoaded", () => {
  startLive(); startPicker(); startSetup(); startOverlayToggles(); startCamera(); startDeckJob();
  tickTimers(); setInterval(tickTimers, 250);
});
