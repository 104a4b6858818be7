// The replay page: every state of a finished match (?match=ID) or of an uploaded record
// file, stepped through with buttons or the arrow keys and drawn by the game's own module
// as a spectator sees it; once the match is over, any seat's eyes can be chosen.
import {
  announce, api, ask, askUntilAnswered, drawEnd, drawWith, el, gameCatalogue, loadDrawing, logItems, showBoardText, titlesOnTap,
  toast,
} from "./common.js";
import { counted } from "./draw.js";
import { showReview } from "./review.js";

const $ = (id) => document.getElementById(id);
let replay = null; // the server's answer to POST /api/replay
let record = null;
let module = null;
let step = 0;
let eyes = "spectator";
let catalogue = null;
let review = { step() {}, marks: new Map() }; // the Review panel (js/review.js)
let recordText = null; // the record as the server is sent it (its seed exact)
let boardTexts = new Map(); // "step:seat" -> the board as text the server drew for it
let boardAsked = null; // the "step:seat" being asked for now
let boardFailed = null; // { key, text }: why the server did not send a board
let boardTimer = null;
let uploaded = false; // a record file was chosen: a match's record still asked for is not wanted

const ui = { move() {}, canMove: false, selection: {}, redraw: () => draw() };

/** The record's seats as the game page shows them: an agent spec becomes "Computer (hard)"
 * (the catalogue's levels say which spec is which level), a person keeps their name. A
 * server's record says which seats were people (`people`): a person called "easy" is not
 * the computer's easy level. */
function seatInfo(game, specs, names, people) {
  const entry = (catalogue || []).find((g) => g.name === game) || { levels: [], agents: [] };
  const agents = new Set((entry.agents || []).filter((a) => a !== "human"));
  return names.map((name, s) => {
    const spec = specs[s];
    const person = Array.isArray(people) && people.includes(s);
    const level = person ? null : (entry.levels || []).find((l) => l.spec === spec);
    const agent = !person && (level || (spec && agents.has(spec.split(":")[0]))) ? spec : null;
    const label = level ? `Computer (${level.level})` : agent ? `Computer (${spec.split(":")[0]})`
      : spec && spec !== "human" ? spec : name;
    return { seat: s, seat_name: name, name: label, label, kind: agent ? "agent" : "person", agent };
  });
}

async function seatNames(game, count, view) {
  if (view && Array.isArray(view.seats) && view.seats.every((s) => typeof s === "string")) return view.seats;
  catalogue = await gameCatalogue();
  const entry = catalogue.find((g) => g.name === game);
  const names = entry ? entry.seat_names : [];
  return Array.from({ length: count }, (_, s) => names[s] || `Seat ${s}`);
}

/** A finished match's record as the server wrote it: kept as text, because parsing it
 * would round its seed (a 128-bit JSON number) to a double and the replay would differ.
 * While the server is not answering (restarting behind a proxy), the board says so and it
 * is asked for again; null once a record file is chosen instead. */
async function fetchRecordText(match) {
  const path = `/api/matches/${encodeURIComponent(match)}/record`;
  const reply = await askUntilAnswered(() => ask(path), boardSays, () => !uploaded);
  if (uploaded) return null;
  if (reply.refused) throw new Error(reply.refused);
  return reply.text;
}

/** A line in place of the picture, before there is one to draw. */
function boardSays(text) {
  $("board").replaceChildren(el("p", { class: "no-drawing", role: "status" }, text));
}

async function load(text, match = null) {
  replay = await api("/api/replay", text);
  recordText = text;
  record = JSON.parse(text);
  boardTexts = new Map();
  boardFailed = null;
  module = await loadDrawing(replay.game);
  const last = replay.views.length - 1;
  const count = (record.seats || []).length || (replay.views[0].seats || []).length || 2;
  replay.seat_names = await seatNames(replay.game, count, replay.views[0].spectator);
  catalogue = await gameCatalogue();
  replay.seats = seatInfo(replay.game, record.seats || [], replay.seat_names, record.people);
  $("eyes").replaceChildren(el("option", { value: "spectator" }, "a spectator"),
    ...replay.seat_names.map((name, s) => el("option", { value: String(s) }, name)));
  $("eyes-box").hidden = !replay.views[last].seats;
  eyes = "spectator";
  const wanted = Number(new URLSearchParams(location.search).get("step"));
  // A step past the end (a link to a longer game, a number mistyped) opens at the end.
  step = Number.isInteger(wanted) && wanted >= 0 ? Math.min(wanted, last) : 0;
  // The game's title ("Erosion"), as the lobby and the game page name it, not its id.
  const title = (catalogue.find((g) => g.name === replay.game) || {}).title || replay.game;
  replay.title = title;
  document.title = `Replay: ${title} — meeple`;
  $("title").textContent = `Replay — ${title} (${counted(replay.moves.length, "move")})`;
  review = showReview($("review"), {
    match, recordText: match ? null : text, names: replay.seat_names, goTo: go,
    onReady: (ready) => { review = ready; draw(); },
  });
  draw();
}

/** The moves up to a step as a seat saw them then: another seat's choice in a decision
 * not yet revealed says only "has chosen", as on the game page (a spectator after the
 * match, null, sees every move, as `meeple replay` shows them). */
function movesSeen(index, seat) {
  const concealed = new Set(seat === null ? [] : replay.views[index].concealed || []);
  return replay.moves.slice(0, index).map((move) => (
    concealed.has(move.n) && move.seat !== seat ? { n: move.n, seat: move.seat, text: null } : move));
}

/** Whose eyes the replay is seen through at a step: a seat's number, or null (a spectator,
 * and everyone before the match is over, where no seat's views are sent). */
function eyesAt(index) {
  return eyes === "spectator" || !replay.views[index].seats ? null : Number(eyes);
}

/** A state-message-like object for one step, as the drawing contract wants it. */
function messageAt(index) {
  const views = replay.views[index];
  const seat = eyesAt(index);
  const view = seat === null ? views.spectator : views.seats[seat];
  const last = index === replay.views.length - 1;
  const over = last && replay.result !== null;
  return {
    type: "state",
    game: replay.game,
    title: replay.title,
    options: replay.options,
    seq: index,
    seat,
    seat_names: replay.seat_names,
    view,
    legal: [],
    to_act: over ? [] : (view.to_act || []),
    chosen: [],
    status: over ? "finished" : "playing",
    seats: replay.seats,
    log: movesSeen(index, seat),
    result: over ? replay.result : null,
    deadlines: {},
    replay: true,
  };
}

function draw() {
  if (!replay) return;
  const msg = messageAt(step);
  ui.selection = {};
  drawWith(module, $("board"), msg, ui);
  const total = replay.views.length - 1;
  $("position").textContent = step === 0 ? `start (0 / ${total})` : `move ${step} / ${total}`;
  document.body.dataset.step = String(step);
  // A button disabled under the keyboard's focus (▶ at the last move) would drop the focus
  // to the page: it goes to the enabled button that leads the other way.
  const had = document.activeElement;
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === total;
  if (had && had.disabled) $(["first", "prev"].includes(had.id) ? "next" : "prev").focus();
  $("log").replaceChildren(...logItems(msg, msg.log).map((li, i) => {
    const mark = review.marks.get(i + 1);
    if (mark) li.append(el("span", { class: "review-mark", title: "the review's mark" }, ` ${mark}`));
    return li;
  }));
  review.step(step);
  const current = $("log").lastElementChild;
  if (current) current.scrollIntoView({ block: "nearest" });
  drawEnd($("end"), msg);
  drawBoardText();
}

// The board as text is drawn by the server (Game.render_text), one step a request, and only
// while the box is open: drawing every step's text would cost the server tens of ms each. A
// reader stepping on asks for where they stop (the step held this long), one request at
// a time, and each text is kept for the record, so stepping back asks nothing.
const BOARD_REST_MS = 250;

function boardKey() {
  const seat = eyesAt(step);
  return `${step}:${seat === null ? "" : seat}`;
}

function drawBoardText() {
  if (!replay || !$("board-text-box").open) return;
  const key = boardKey();
  if (boardFailed && boardFailed.key !== key) boardFailed = null; // asked again on coming back
  const failed = boardFailed ? boardFailed.text : null;
  showBoardText(messageAt(step), boardTexts.get(key) ?? failed);
  if (!boardTexts.has(key) && !failed) {
    clearTimeout(boardTimer);
    boardTimer = setTimeout(askBoardText, BOARD_REST_MS);
  }
}

async function askBoardText() {
  const key = boardKey();
  if (boardAsked || boardTexts.has(key) || !$("board-text-box").open) return;
  boardAsked = key;
  const seat = eyesAt(step);
  const asked = recordText;
  const query = `step=${step}${seat === null ? "" : `&seat=${seat}`}`;
  try {
    const reply = await api(`/api/replay/board-text?${query}`, asked);
    if (asked === recordText) boardTexts.set(key, reply.text);
  } catch (error) {
    boardFailed = { key, text: `The server did not send the board: ${error.message}` };
  }
  boardAsked = null;
  drawBoardText(); // the step it was asked for, or the one the reader has moved on to
}

function go(to) {
  if (!replay) return;
  step = Math.max(0, Math.min(replay.views.length - 1, to));
  const url = new URL(location.href);
  url.searchParams.set("step", String(step));
  history.replaceState(null, "", url);
  draw();
  // A screen reader hears where the replay is and the move that led there, in the log's
  // words (the picture shows it, the position alone says only a number).
  const last = $("log").lastElementChild;
  const where = $("position").textContent;
  announce(step && last ? `${where}: ${last.textContent.trim()}` : where);
}

function setUp() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("eyes").addEventListener("change", () => { eyes = $("eyes").value; draw(); });
  $("board-text-box").addEventListener("toggle", () => { boardFailed = null; drawBoardText(); });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    // In the board as text, Home and End scroll it (the arrows still step the replay).
    if (["Home", "End"].includes(event.key) && event.target.closest && event.target.closest("#board-text")) return;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (!file) return;
    uploaded = true;
    try {
      await load(await file.text());
    } catch (error) {
      toast(`that record could not be replayed: ${error.message}`, "error");
    }
  });
  const match = new URLSearchParams(location.search).get("match");
  if (match) {
    fetchRecordText(match).then((text) => text !== null && load(text, match)).catch((error) => toast(error.message, "error"));
  } else {
    $("board").replaceChildren(el("p", { class: "no-drawing" }, "Choose a record file (as `meeple play --save` writes it), or open a finished match from the lobby."));
  }
}

titlesOnTap();
setUp();
