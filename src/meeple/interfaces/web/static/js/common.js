// What every page shares: building elements, calling the REST API, toasts, and the
// words for seats, scores and results (so the game page and the replay say the same).

import { TOUCH, gameStyle, sentence } from "./draw.js";

/** A new element: el("div", {class: "x", onclick: f}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Calls the REST API; a refusal throws an Error with the server's one-line message. */
export async function api(path, body = undefined) {
  const reply = await ask(path, body);
  if (reply.refused) throw new Error(reply.refused);
  return reply.body;
}

/** A request's answer, never thrown: {status (0 where the server could not be reached),
 * text (the body as it came), body (parsed as JSON; null where it is not JSON), retry (the
 * Retry-After, in seconds; 0 where none), refused (what a refusal says; null for a success)}.
 * `body`: a POST's body, a string as it is or anything else as JSON. */
export async function ask(path, body = undefined) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  try {
    const response = await fetch(path, init);
    const text = await response.text();
    let data = null;
    try { data = JSON.parse(text); } catch { /* an empty or non-JSON body */ }
    // Seconds, at most a minute: a proxy's "Retry-After: 3600" (or a date, read as 0: the
    // caller's own wait) must not leave a page silent for an hour.
    const retry = Math.min(Math.max(Number(response.headers.get("Retry-After")) || 0, 0), 60);
    return { status: response.status, text, body: data, retry, refused: response.ok ? null : refusalText(response, data) };
  } catch (error) {
    const said = `the server could not be reached (${error.message})`;
    return { status: 0, text: "", body: { error: said }, retry: 5, refused: said };
  }
}

/** A promise that resolves after `ms` milliseconds. */
export const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A proxy's own answers while the server behind it is down or restarting (502, 503) or
// slow (504): asked again, as when the server cannot be reached. The server's own 503
// (a review's "busy") carries its code, and is its caller's to read.
const PROXY_RETRIES = new Set([502, 503, 504]);

/** Asks with `request` (a function giving `ask`'s promise) until the server answers: while
 * it cannot be reached, or a reverse proxy answers in its place, `say` hears so and the
 * request is made again after the Retry-After, or 10 s. `wanted()`: whether the answer is
 * still wanted (a newer load of the page's record stops asking for an older one's); the
 * reply in hand is given back once it is not. */
export async function askUntilAnswered(request, say, wanted = () => true) {
  for (;;) {
    const reply = await request();
    const code = reply.body && reply.body.code;
    const answered = reply.status !== 0 && (code || !PROXY_RETRIES.has(reply.status));
    if (answered || !wanted()) return reply;
    const seconds = reply.retry || 10;
    say(`The server is not answering; trying again in ${seconds} s.`);
    await wait(1000 * seconds);
  }
}

/** What a refused request says: the server's one-line message, or, for an answer that is
 * not the server's (a reverse proxy in front of it answers with an HTML page of its own, and
 * over HTTP/2 with no status text at all), what its status means. `data`: the body, parsed,
 * or null where it is not JSON. */
export function refusalText(response, data) {
  if (data && typeof data.error === "string") return data.error;
  const words = PROXY_WORDS[response.status] || response.statusText || "refused";
  return `${words} (HTTP ${response.status})`;
}

// The answers of a proxy that a player meets: a body past its size limit (nginx's is 1 MB
// unless raised, docs/security.md), the game server stopped or restarting behind it, and
// the proxy's own time limit.
const PROXY_WORDS = {
  413: "larger than this site accepts",
  502: "the game server is not answering; try again in a moment",
  503: "the site is not available; try again in a moment",
  504: "the game server took too long to answer; try again",
};

/** Shows a short message for a few seconds (errors stay a little longer). */
/** Copy a link to the clipboard, and say so. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the clipboard API (plain http on another host) the text is selected instead.
    const area = el("textarea", {}, text);
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast("link copied");
}

/** A link to send, in a line with its Copy button: "Send to the player of Blue: URL". */
export function sendLine(name, url) {
  return el("div", { class: "link" }, `Send to the player of ${name}: `,
    el("code", { class: "join-link" }, url),
    el("button", { type: "button", onclick: () => copyText(url) }, "Copy"));
}

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = el("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/** On a touch screen nothing hovers: a tap on a part of the page that explains itself only
 * on hover (a `title`, or an SVG `<title>`: a computer seat's agent, an Erd game's full
 * ending, an Erosion rock's kind and hardness, what a Squad Combat cost means) shows that
 * explanation as a toast. A tap on a control does what the control does, and no more.
 * Each page calls it once. */
export function titlesOnTap() {
  if (!TOUCH) return;
  document.addEventListener("click", (event) => {
    // Inside a control (a card that plays, a cost on it) the tap is the control's alone, and a
    // greyed one says its why itself (said twice, as a toast over the hand too, on a phone).
    if (event.target.closest?.("button, a, input, select, summary, label, dialog, .clickable, [aria-disabled='true'][role='button']")) return;
    for (let node = event.target; node && node !== document.body; node = node.parentNode) {
      const said = node.getAttribute?.("title")
        || [...(node.children || [])].find((child) => child.tagName === "title")?.textContent;
      if (said) {
        toast(said);
        return;
      }
    }
  });
}

/** Says sentences in the page's live region (#announce, read by screen readers, not
 * shown), each call a paragraph of its own: added, not put in place of the last, so that two
 * states a moment apart are both said, and the same words twice ("Your move.") twice. The
 * last few are kept. */
export function announce(...parts) {
  const region = document.getElementById("announce");
  const text = parts.filter(Boolean).map(sentence).join(" ");
  if (!text || !region) return;
  region.append(el("p", {}, text));
  while (region.childElementCount > 3) region.firstElementChild.remove();
}

/** "Board as text", on the game page and the replay page alike: its caption says whose
 * board it is and after which move (``msg``: a state message, or the replay's step), and
 * labels the text, the server's (null while it is asked for). */
export function showBoardText(msg, text) {
  const who = msg.seat === null ? "a spectator" : seatLabel(msg, msg.seat);
  const caption = `${msg.title}: the board as ${who} sees it, after move ${msg.seq}`;
  document.getElementById("board-text-caption").textContent = caption;
  const shown = typeof text === "string" ? text : "Asking the server for the board…";
  const pre = document.getElementById("board-text");
  if (pre.textContent !== shown) pre.textContent = shown;
}

/** Who plays a seat in plain words: "Ann", "Computer (hard)" (the server's label; never
 * an agent's raw spec, which goes on hover: see seatTitle); null for an open seat. */
export function playerOf(msg, seat) {
  const info = (msg.seats || [])[seat];
  if (!info) return null;
  return info.label ?? info.name ?? null;
}

/** "Red (Ann)", "Blue · Computer (hard)" for a seat from the state message's seats. With
 * ``you``, the reader's own seat says so once, inside the one pair of brackets where there
 * is one ("Red (Ann, you)", "Red (you)"), never "Red (Ann) (you)". */
export function seatLabel(msg, seat, you = false) {
  const name = (msg.seat_names || [])[seat] ?? `seat ${seat}`;
  const who = playerOf(msg, seat);
  const mine = you && seat === msg.seat ? " (you)" : "";
  if (!who || who === name) return name + mine;
  if ((msg.seats[seat] || {}).kind === "agent") return `${name} · ${who}${mine}`;
  return mine ? `${name} (${who}, you)` : `${name} (${who})`;
}

/** The hover text of a seat: the agent's spec for a computer seat, else its label. */
export function seatTitle(msg, seat) {
  const info = (msg.seats || [])[seat];
  return info && info.agent ? `${seatLabel(msg, seat)}: agent ${info.agent}` : seatLabel(msg, seat);
}

/** The scores per seat, wherever this game keeps them; null if it has none. */
export function scoresOf(msg) {
  const candidates = [msg.result, msg.view && msg.view.result, msg.view];
  for (const c of candidates) {
    if (!c) continue;
    // A game whose scores are recorded only at an era's end (Erosion) shows the points each
    // seat would score now until then, as its picture does: the seat list agrees with it.
    if (Array.isArray(c.points_now) && !(c.era_scores || []).length && !c.over) return c.points_now;
    if (Array.isArray(c.scores)) return c.scores;
    if (Array.isArray(c.score)) return c.score;
  }
  return null;
}

/** The winners of a finished match as seat numbers (empty for a draw). */
export function winnersOf(result) {
  if (!result) return [];
  if (Array.isArray(result.winners)) return result.winners;
  if (typeof result.winner === "number") return [result.winner];
  return [];
}

/** Who won msg.result, in words: "You won!" (the reader's seat), "Red (Ann) won", "A1
 * and A2 won", "A draw", "Lesson complete" (a tutorial that stopped before its game's end). */
export function outcomeOf(msg) {
  // A match that expired, or was called off before it began, has no winner, but nobody
  // drew it either.
  if (msg.result && (msg.result.expired || msg.result.aborted)) return "Nobody won";
  // A lesson that stops before its game's end has no winner either: the learner did not draw.
  if (msg.result && msg.result.lesson) return "Lesson complete";
  const winners = winnersOf(msg.result);
  if (winners.length === 0) return "A draw";
  if (winners.includes(msg.seat)) return "You won!";
  return `${winners.map((s) => seatLabel(msg, s)).join(" and ")} won`;
}

/** The result's reason with each seat as the page names it: the server writes "Red (seat
 * 0) resigned" for every reader, a seat's number counted from 0 being a programmer's, and a
 * person reads "Red (Ann) resigned" beside the scores that name Red so. */
export function reasonOf(msg) {
  let text = (msg.result && msg.result.reason) || "";
  (msg.seat_names || []).forEach((name, seat) => {
    text = text.split(`${name} (seat ${seat})`).join(seatLabel(msg, seat));
  });
  return text;
}

/** How the match ended in words a screen reader reads, what the end box shows: "Game
 * over: You won! (all pyramids are placed). Red 8, Blue · Computer (hard) 2." */
export function endWords(msg) {
  const why = reasonOf(msg);
  const reason = why ? ` (${why}).` : ".";
  const rows = scoreRows(msg);
  const listed = rows ? ` ${rows.map((row) => `${row.who} ${row.score}`).join(", ")}.` : "";
  return `Game over: ${outcomeOf(msg)}${reason}${listed}`;
}

/** The scores at the end as the end box lists them and a screen reader hears them: one row
 * per seat, or per side where a team game scores its sides (Double Edges), each with who,
 * the score, whether it won and its hover text; null in a game without scores. */
export function scoreRows(msg) {
  const scores = scoresOf(msg);
  if (!scores) return null;
  if (scores.length === (msg.seat_names || []).length) {
    const winners = winnersOf(msg.result);
    return scores.map((score, i) => ({ who: seatLabel(msg, i), score, won: winners.includes(i), title: seatTitle(msg, i) }));
  }
  // The game's own result names its sides and the winning one (a side's number).
  const own = msg.result && msg.result.sides ? msg.result : (msg.view && msg.view.result) || {};
  const sides = own.sides || [];
  return scores.map((score, i) => ({ who: sides[i] || `side ${i + 1}`, score, won: own.winner === i, title: null }));
}

/** Fills an end-of-match box: who won, why, the scores. */
export function drawEnd(box, msg, extra = []) {
  const result = msg.result;
  box.replaceChildren();
  box.hidden = !result;
  if (!result) return;
  box.append(el("h2", { class: "end-title" }, outcomeOf(msg)));
  if (result.reason) box.append(el("p", { class: "end-reason" }, reasonOf(msg)));
  const rows = scoreRows(msg);
  if (rows) {
    box.append(el("table", { class: "end-scores" },
      rows.map((row) => el("tr", { class: row.won ? "won" : null },
        el("td", { class: "end-who", title: row.title }, row.who),
        el("td", { class: "end-score" }, String(row.score))))));
  }
  box.append(...extra);
}

/** Words that only say the notation again ("pass": "passed"), left off a log line as the
 * terminal's log leaves them (meeple.interfaces.move_log.echoes: the same three forms).
 * Erosion's picture still says "last turn: Andes passed" from them. */
export function echoes(text, words) {
  return words === text || words === `${text}ed` || words === `${text}d`;
}

/** The game's words as the log writes them after the notation, as the terminal's log joins
 * them (meeple.interfaces.move_log.after_notation): none that only say it again; the rest
 * of words that begin with it, so the line reads on ("memorised" then "the order of shared
 * symbols for rounds 1 to 16"); else after a dash (run straight on, "rush=HLD defense=LLD
 * put 1 Heavy" read as one phrase). */
function afterNotation(text, words) {
  if (!words || echoes(text, words)) return [];
  if (words.startsWith(`${text} `)) return [" ", el("span", { class: "log-words" }, words.slice(text.length + 1))];
  return [" — ", el("span", { class: "log-words" }, words)];
}

/** The move log as list items: hidden choices of others say only "has chosen". */
export function logItems(msg, entries) {
  return entries.map((entry) => el("li", { value: entry.n, class: entry.seat === msg.seat ? "mine" : null, title: seatTitle(msg, entry.seat) },
    el("span", { class: `seat-dot seat-${entry.seat}` }),
    `${seatLabel(msg, entry.seat)}: `,
    entry.text === null ? el("em", {}, "has chosen") : el("code", {}, entry.text),
    ...afterNotation(entry.text, entry.words),
    entry.timeout ? el("em", { class: "timed-out" }, entry.seat === msg.seat
      ? " time ran out: the computer chose for you" : " time ran out: the computer chose") : null,
    // Under the move, a line each, what the game then did by itself (Squad Combat's dice,
    // hits and misses): the board's own log shows only its last lines. The hidden stops
    // keep the lines apart where the item is read as one text (a screen reader's news).
    ...(entry.after || []).map((line, i) => el("span", { class: "log-after" },
      el("span", { class: "sr-only" }, i ? " " : ". "), line))));
}

/** Imports a game's drawing module (static/games/<game>.js) once its stylesheet (beside
 * it, of the same name) has loaded, so the first picture is drawn styled; null if there is
 * no module. */
async function loadGame(game) {
  try {
    const module = await import(`/static/games/${game}.js`);
    await gameStyle(game, new URL("/static/games/", window.location.href));
    return module;
  } catch (error) {
    console.error(`no drawing for ${game}`, error);
    return null;
  }
}

let games = null;

/** The games (GET /api/games), asked once per page; an empty list if they cannot be had. */
export async function gameCatalogue() {
  games = games || await api("/api/games").catch(() => null);
  return games || [];
}

/** The drawing module for a game: its own where the catalogue says it has one ("drawing"),
 * else the generic one (the view as text, its moves as buttons). A game without its own is
 * not asked for, so the browser logs no missing module. */
export async function loadDrawing(game) {
  const entry = (await gameCatalogue()).find((g) => g.name === game);
  const own = !entry || entry.drawing;
  return (own && (await loadGame(game))) || (await loadGame("generic"));
}

/** Draws with a game module, falling back to the view as text if it fails. */
export function drawWith(module, root, msg, ui) {
  if (module && typeof module.draw === "function") {
    try {
      const focus = keyboardFocus(root);
      module.draw(root, msg, ui);
      restoreFocus(root, focus);
      return;
    } catch (error) {
      console.error(error);
      toast(`the drawing failed: ${error.message}`, "error");
    }
  }
  root.replaceChildren(
    el("p", { class: "no-drawing" }, "No picture for this game yet: use the notation box."),
    el("pre", { class: "raw-view" }, JSON.stringify(msg.view, null, 1)),
  );
}

/** What the keyboard had focused in the picture before a redraw: its hint, and the hints
 * of every clickable then (null when the focus was elsewhere). The picture itself holds
 * the focus between a move and the player's next turn (nothing to click meanwhile): then
 * the hint is that of the part the player last used. */
function keyboardFocus(root) {
  const active = document.activeElement;
  if (active && active === root && root.dataset.usedHint !== undefined) {
    return { hint: root.dataset.usedHint, hints: new Set(), waiting: true };
  }
  if (!active || !root.contains(active) || !active.classList.contains("clickable")) return null;
  const hints = new Set([...root.querySelectorAll(".clickable")].map((e) => e.getAttribute("data-hint")));
  return { hint: active.getAttribute("data-hint"), hints };
}

// Whether the player last used the keyboard (not a pointer): the focus that comes back at
// their turn scrolls into sight for them, and never moves the page under a finger.
let keyboardUsed = false;
document.addEventListener("keydown", () => { keyboardUsed = true; }, true);
document.addEventListener("pointerdown", () => { keyboardUsed = false; }, true);

/** A redraw replaces the picture's elements, which would drop a keyboard player's focus to
 * the page: the focus goes to the first clickable the step opened (a size picker, the next
 * card), else back to the same part, else to the first clickable. A move sent leaves
 * nothing to click: the picture itself keeps the focus until the player's next turn, when
 * it goes to the part they used, or the first clickable if that one is gone. */
function restoreFocus(root, before) {
  if (!before) return;
  const now = [...root.querySelectorAll(".clickable")];
  const same = now.find((e) => e.getAttribute("data-hint") === before.hint);
  const target = before.waiting ? same || now[0]
    : now.find((e) => !before.hints.has(e.getAttribute("data-hint"))) || same || now[0];
  if (target) {
    delete root.dataset.usedHint;
    target.focus({ preventScroll: before.waiting && !keyboardUsed });
    return;
  }
  root.dataset.usedHint = before.hint || "";
  if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  if (document.activeElement !== root) root.focus({ preventScroll: true });
}
