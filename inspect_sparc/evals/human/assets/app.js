// The human-baseline page: draws the path, sends answers, shows feedback. No puzzle data is in
// this file; each puzzle comes from /api/next, and its solutions never leave the server.
"use strict";

const $ = (id) => document.getElementById(id);
const DIRS = { ArrowRight: [1, 0, 0], ArrowUp: [0, -1, 1], ArrowLeft: [-1, 0, 2], ArrowDown: [0, 1, 3] };
const HEARTBEAT_MS = 3000;

const S = {
  participant: sessionStorage.getItem("participant"),
  offer: null, view: null, path: [], moves: 0, undos: 0, shownAt: 0,
  picked: null, busy: false, queue: Promise.resolve(), over: false, screen: "join",
  dragging: false, answered: 0, open: 0,
};

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, body) {
  const reply = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
  const value = await reply.json().catch(() => ({ error: "unreadable reply" }));
  if (!reply.ok) throw new ApiError(reply.status, value.error || "refused");
  return value;
}

function show(screen) {
  S.screen = screen;
  for (const id of ["join", "waiting", "play", "feedback", "over"]) $(id).hidden = id !== screen;
}

function say(text) { $("status").textContent = text || ""; }

function key(p) { return p[0] + "," + p[1]; }
function same(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }

function setProgress() {
  const n = S.answered + 1, total = S.answered + Math.max(S.open, 1);
  $("progress").textContent = S.view ? `Puzzle ${Math.min(n, total)} of ${total}` : "";
}

// --- drawing --------------------------------------------------------------------------------

function centre(p) { return S.view.pixels[key(p)]; }

function draw() {
  const board = $("board");
  board.dataset.path = JSON.stringify(S.path);
  const canvas = $("overlay");
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!S.view || S.view.kind === "choice" || S.path.length === 0) return;
  const cell = S.view.spacing;
  ctx.strokeStyle = "#ffcc00"; ctx.fillStyle = "#ffcc00";
  ctx.lineWidth = cell * 0.3; ctx.lineCap = "round"; ctx.lineJoin = "round";
  ctx.beginPath();
  S.path.forEach((p, i) => { const [x, y] = centre(p); if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y); });
  ctx.stroke();
  const [hx, hy] = centre(S.path[S.path.length - 1]);
  ctx.beginPath(); ctx.arc(hx, hy, cell * 0.32, 0, 2 * Math.PI); ctx.fill();
  startBadge(ctx, cell);
}

// The picture's S badge, drawn again over the path (which would hide it): where the path
// starts stays readable, as in the answer pictures (white badge, black outline and letter).
function startBadge(ctx, cell) {
  const [sx, sy] = centre(S.view.start);
  const width = Math.round(cell * 0.42), height = Math.round(cell * 0.56);
  const left = Math.round(sx - width / 2), top = Math.round(sy - height / 2);
  ctx.fillStyle = "#fff"; ctx.fillRect(left, top, width, height);
  ctx.strokeStyle = "#000"; ctx.lineWidth = Math.max(1, Math.round(cell / 30));
  ctx.strokeRect(left + 0.5, top + 0.5, width - 1, height - 1);
  ctx.fillStyle = "#000"; ctx.font = `${Math.round(cell * 0.42)}px sans-serif`;
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.fillText("S", sx, sy + 1);
}

// --- a puzzle -------------------------------------------------------------------------------

function load(reply) {
  S.offer = reply.offer; S.view = reply.view; S.picked = null;
  S.path = reply.view.start ? [reply.view.start] : [];
  S.moves = 0; S.undos = 0; S.shownAt = Date.now();
  const v = S.view;
  $("board").dataset.puzzleId = v.puzzle_id;
  $("text").textContent = v.text;
  $("picture").src = v.image;
  const path = v.kind !== "choice";
  $("overlay").hidden = !path; $("back").hidden = !path;
  $("reset").hidden = v.kind !== "path"; $("submit").hidden = v.kind === "gym";
  $("choices").hidden = path;
  if (path) {
    v.pixels = {};
    for (const [x, y, px, py] of v.points) v.pixels[x + "," + y] = [px, py];
    $("overlay").width = v.image_size[0]; $("overlay").height = v.image_size[1];
    $("keys").textContent = v.kind === "gym"
      ? "Arrow keys or clicks move one step; each move is checked as the gym checks it (a refused move still counts as a step)."
        + (v.traceback ? " Backspace steps back." : " Stepping back is not allowed in this run.")
        + ` At most ${v.max_steps} steps.`
      : "Arrow keys or clicking/dragging over the grid draw the path from S; Backspace steps back, Escape starts again, Enter submits.";
  } else {
    const box = $("choices"); box.textContent = "";
    v.options.forEach((option, i) => {
      const button = document.createElement("button");
      button.type = "button"; button.dataset.choice = i;
      button.textContent = `${i + 1}. (${v.letters[i]}) ${option}`;
      button.addEventListener("click", () => pick(i));
      box.appendChild(button);
    });
    $("keys").textContent = "Keys 1-4 or a click pick an option; Enter submits.";
  }
  say(""); show("play"); setProgress(); draw();
}

async function next() {
  if (S.over) { show("over"); return; }
  show("waiting");
  for (;;) {
    let reply;
    try { reply = await api("/api/next", { participant: S.participant }); }
    catch (error) {
      if (error instanceof ApiError && error.status === 403) { sessionStorage.removeItem("participant"); S.participant = null; show("join"); return; }
      gone(); return;
    }
    S.answered = reply.progress.answered; S.open = reply.progress.open;
    if (reply.state === "puzzle") { load(reply); return; }
    $("progress").textContent = `${S.answered} answered; waiting for a puzzle`;
  }
}

function gone() {
  S.over = true; show("over");
  $("progress").textContent = `${S.answered} answered`;  // the run's total is no longer known
  $("over-why").textContent = "The page's server has stopped; every answer given was kept.";
}

// --- moves ----------------------------------------------------------------------------------

function extend(target) {
  if (S.busy || S.screen !== "play" || !S.view || S.view.kind === "choice") return;
  const last = S.path[S.path.length - 1];
  if (Math.abs(target[0] - last[0]) + Math.abs(target[1] - last[1]) !== 1) return;
  if (S.view.kind === "gym") { gymMove(target); return; }
  if (!(key(target) in S.view.pixels)) { say("The path cannot go there (off the grid or through a rule cell)."); return; }
  if (S.path.length >= 2 && same(target, S.path[S.path.length - 2])) { back(); return; }
  if (S.path.some((p) => same(p, target))) { say("The path cannot visit a position twice."); return; }
  S.path.push(target); S.moves += 1; say(""); draw();
}

function back() {
  if (S.busy || S.screen !== "play" || !S.view || S.view.kind === "choice" || S.path.length < 2) return;
  if (S.view.kind === "gym") { gymMove(S.path[S.path.length - 2]); return; }
  S.path.pop(); S.undos += 1; draw();
}

function reset() {
  if (S.screen !== "play" || !S.view || S.view.kind !== "path" || S.path.length < 2) return;
  S.path = [S.path[0]]; S.undos += 1; draw();
}

function gymMove(target) {
  const last = S.path[S.path.length - 1];
  const dx = target[0] - last[0], dy = target[1] - last[1];
  const action = Object.values(DIRS).find(([x, y]) => x === dx && y === dy)[2];
  S.queue = S.queue.then(async () => {
    if (S.screen !== "play") return;
    let reply;
    try { reply = await api("/api/move", { participant: S.participant, offer: S.offer, action }); }
    catch (error) { refused(error); return; }
    if (reply.legal) {
      if (reply.backtrack) S.path.pop(); else S.path.push(reply.position);
      say("");
    } else {
      say(`The gym refuses that move (counted as step ${reply.steps}).`);
    }
    draw();
    if (reply.ended) feedback(reply.feedback, reply.over);
  });
}

function refused(error) {
  if (error instanceof ApiError) say(error.message);
  else gone();
}

function pick(i) {
  if (S.screen !== "play" || S.view.kind !== "choice" || i >= S.view.options.length) return;
  S.picked = i;
  for (const b of $("choices").children) b.classList.toggle("picked", Number(b.dataset.choice) === i);
}

async function submit() {
  if (S.busy || S.screen !== "play" || !S.view || S.view.kind === "gym") return;
  const body = { participant: S.participant, offer: S.offer };
  if (S.view.kind === "choice") {
    if (S.picked === null) { say("Pick an option first."); return; }
    body.choice = S.picked;
  } else {
    Object.assign(body, { path: S.path, moves: S.moves, undos: S.undos });
  }
  S.busy = true;
  try { const reply = await api("/api/submit", body); feedback(reply.feedback, reply.over); }
  catch (error) { refused(error); }
  finally { S.busy = false; }
}

async function giveUp() {
  if (S.busy || S.screen !== "play") return;
  if (!confirm("Give up this puzzle? It counts as not solved.")) return;
  S.busy = true;
  try {
    const reply = await api("/api/giveup", { participant: S.participant, offer: S.offer });
    feedback({ solved: false, text: "You gave up this puzzle.", picture: null }, reply.over);
  } catch (error) { refused(error); }
  finally { S.busy = false; }
}

function feedback(shown, over) {
  S.over = Boolean(over); S.answered += 1;
  $("verdict").textContent = shown.solved ? "Solved" : "Not solved";
  $("verdict").className = shown.solved ? "solved" : "failed";
  $("feedback-text").textContent = shown.text;
  const picture = $("feedback-picture");
  picture.hidden = !shown.picture; if (shown.picture) picture.src = shown.picture;
  $("next").textContent = S.over ? "Finish" : "Next puzzle";
  if (S.over) $("over-why").textContent = "That was the last puzzle of this run.";
  S.view = null; show("feedback");
}

// --- mouse ----------------------------------------------------------------------------------

function pointAt(event) {
  const canvas = $("overlay"), rect = canvas.getBoundingClientRect();
  const x = (event.clientX - rect.left) * canvas.width / rect.width;
  const y = (event.clientY - rect.top) * canvas.height / rect.height;
  let best = null, bestDistance = S.view.spacing * 0.6;
  for (const [k, [px, py]] of Object.entries(S.view.pixels)) {
    const d = Math.hypot(px - x, py - y);
    if (d < bestDistance) { best = k.split(",").map(Number); bestDistance = d; }
  }
  return best;
}

function pointer(event) {
  if (!S.view || S.view.kind === "choice") return;
  const p = pointAt(event);
  if (!p) return;
  const last = S.path[S.path.length - 1];
  if (same(p, last)) return;
  if (S.path.length >= 2 && same(p, S.path[S.path.length - 2])) back(); else extend(p);
}

function wire() {
  const canvas = $("overlay");
  canvas.addEventListener("pointerdown", (e) => { S.dragging = true; canvas.setPointerCapture(e.pointerId); pointer(e); });
  canvas.addEventListener("pointermove", (e) => { if (S.dragging) pointer(e); });
  canvas.addEventListener("pointerup", () => { S.dragging = false; });
  $("submit").addEventListener("click", submit);
  $("back").addEventListener("click", back);
  $("reset").addEventListener("click", reset);
  $("giveup").addEventListener("click", giveUp);
  $("next").addEventListener("click", next);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (S.screen === "feedback" && e.key === "Enter") { e.preventDefault(); next(); return; }
    if (S.screen !== "play") return;
    if (e.key in DIRS) { e.preventDefault(); const last = S.path[S.path.length - 1]; extend([last[0] + DIRS[e.key][0], last[1] + DIRS[e.key][1]]); }
    else if (e.key === "Backspace") { e.preventDefault(); back(); }
    else if (e.key === "Escape") { e.preventDefault(); if (S.view.kind === "gym") say("The gym has no reset."); else reset(); }
    else if (e.key === "Enter") { e.preventDefault(); submit(); }
    else if (/^[1-9]$/.test(e.key) && S.view.kind === "choice") pick(Number(e.key) - 1);
  });
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const reply = await api("/api/join", { name: $("name").value });
      S.participant = reply.participant; sessionStorage.setItem("participant", S.participant);
      localStorage.setItem("name", reply.name); next();
    } catch (error) { alert(error.message); }
  });
  $("name").value = localStorage.getItem("name") || "";
  setInterval(async () => {
    if (S.screen === "play") {
      const seconds = Math.floor((Date.now() - S.shownAt) / 1000);
      $("clock").textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    }
  }, 250);
  setInterval(async () => {
    if (!S.participant || S.screen === "over") return;
    try { await api("/api/heartbeat", { participant: S.participant }); }
    catch (error) { if (!(error instanceof ApiError)) gone(); }
  }, HEARTBEAT_MS);
  window.addEventListener("pagehide", () => {
    if (S.participant) navigator.sendBeacon("/api/release", JSON.stringify({ participant: S.participant }));
  });
}

wire();
if (S.participant) next(); else show("join");
