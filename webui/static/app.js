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

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(region.dataset.src, { headers: { "X-Requested-With": "live" } });
      if (response.ok) {
        region.innerHTML = await response.text();
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
  const inputs = Array.from(form.querySelectorAll(".hand-codes"));
  const seats = Array.from(form.querySelectorAll(".seat"));
  let current = seats.length ? seats[0].dataset.seat : null;

  const codes = (input) => input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);

  function paint() {
    const owner = {};
    inputs.forEach((input) => codes(input).forEach((code) => { owner[code] = input.name; }));
    form.querySelectorAll(".pick").forEach((button) => {
      const who = owner[button.dataset.card];
      button.classList.toggle("mine", who === current);
      button.classList.toggle("theirs", who !== undefined && who !== current);
      button.setAttribute("aria-pressed", who === current ? "true" : "false");
    });
    seats.forEach((seat) => {
      seat.classList.toggle("on", seat.dataset.seat === current);
      seat.querySelector(".count").textContent = codes(form.elements[seat.dataset.seat]).length;
    });
  }

  seats.forEach((seat) => seat.addEventListener("click", () => { current = seat.dataset.seat; paint(); }));
  form.querySelectorAll(".pick").forEach((button) => button.addEventListener("click", () => {
    const card = button.dataset.card;
    inputs.forEach((input) => {
      const list = codes(input);
      const at = list.indexOf(card);
      if (input.name === current) {
        if (at >= 0) list.splice(at, 1); else list.push(card);
      } else if (at >= 0) {
        list.splice(at, 1);
      }
      input.value = list.join(" ");
    });
    paint();
  }));
  inputs.forEach((input) => input.addEventListener("input", paint));
  paint();
}

document.addEventListener("DOMContentLoaded", () => { startLive(); startPicker(); });
