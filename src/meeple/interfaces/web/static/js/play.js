// The game page: one WebSocket to /ws/<match>, the game's drawing module, and around it
// whose turn it is, the seats, the clocks, the move log, typed moves, resign and the end.
//
// The seat's token lives in the address's fragment (#token=...), which browsers never
// send to the server, and travels only inside the hello message. This browser also keeps
// it (js/seats.js) until the match is over, so that /play/<match> without a token takes
// the seat back.
import {
  announce, api, drawEnd, drawWith, el, endWords, loadDrawing, logItems, playerOf, scoresOf, seatLabel, seatTitle,
  sendLine, showBoardText, titlesOnTap, toast,
} from "./common.js";
import { chime, setSound, soundOn } from "./chime.js";
import { CLICK } from "./draw.js";
import { showHint } from "./hint.js";
import { showNameBox } from "./name.js";
import { forgetSeat, heldSeat, invitesOf, openingSeat, rememberSeat } from "./seats.js";
import { showTutorial, tutorialRefused } from "./tutorial.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const link = new URLSearchParams(location.hash.slice(1)).get("token"); // as opened
// The token this page plays with (js/seats.js, openingSeat): the seat this browser keeps
// for the link or the bare address, where it keeps one; the fragment then says so.
let { token, resumed, sentLink } = matchId ? openingSeat(matchId, link) : { token: link, resumed: false, sentLink: null };
if (token !== link) history.replaceState(null, "", `${location.pathname}${location.search}#token=${token}`);
const $ = (id) => document.getElementById(id);

let socket = null;
let msg = null; // the latest state message
let log = []; // the whole move log, spliced together from the incremental pieces
let module = null;
let moduleFor = null;
let selection = {};
let pendingSeq = null; // a move is on its way for this seq: nothing more to click
let pendingDecision = null; // the decision that move answers
let retries = 0;
let stopped = false; // the server refused us for good (bad token, no such match)
let welcomed = false; // this connection was welcomed: an error before it is final
let refusal = null; // the server's error before welcome, shown if it then closes
let refusalCode = null; // and its code
let linkAskedAgain = false; // a refused seat's link was asked for once more (onclose)
let deadlinesAt = 0; // when the deadlines in msg were measured (performance.now())
let seatsAt = 0; // when the seats' "away" seconds in msg were measured (performance.now())
let claimSeconds = null; // how long a person must be away to be claimed from (the welcome's)
let claimShown = ""; // what the claim box shows now, so a tick redraws it only on a change
const claimTold = new Set(); // seats whose claim a screen reader was told of (once each)
const offerTold = new Set(); // seats whose rematch offer a toast told of (once each)
let resignArmed = false;
let waitingSince = performance.now(); // when this seat last stopped being asked a move

/** A player who waited this long for their move may have looked away: the chime says the
 * move is theirs (a computer's answer, in a moment, sounds nothing while they look on). */
const CHIME_AFTER_MS = 5000;

/** Whether a seat's person has no page open (the server says for how long: `away`). */
const isAway = (s) => s.away !== null && s.away !== undefined;

// The move being built (ui.selection: Erd's piles, Erosion's steps so far) outlives a
// reload, or a visit to another page and back, in this tab: it is kept in sessionStorage
// for this match, seat and decision, and dropped once sent or once a new decision begins
// (it was built for a state that is gone). Others' choices in the same simultaneous
// decision change nothing the seat may choose, and the server still takes its move.
const BUILDING = `meeple-building:${matchId}`;

function builtBefore(message) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(BUILDING));
    if (kept && kept.decision === message.decision && kept.seat === message.seat) return kept.selection;
    sessionStorage.removeItem(BUILDING);
  } catch { /* no storage here, or not ours: start afresh */ }
  return {};
}

function keepBuilding() {
  if (!ui.canMove || !Object.keys(selection).length) return;
  try {
    const kept = { decision: msg.decision, seat: msg.seat, selection };
    sessionStorage.setItem(BUILDING, JSON.stringify(kept));
  } catch { /* storage full or refused: the move is built as before, only not kept */ }
}

const ui = {
  move(text) {
    if (!msg || !socket || socket.readyState !== WebSocket.OPEN) {
      toast("not connected: the move was not sent", "error");
      return;
    }
    try { sessionStorage.removeItem(BUILDING); } catch { /* no storage here */ }
    pendingSeq = msg.seq;
    pendingDecision = msg.decision;
    socket.send(JSON.stringify({ type: "move", seq: msg.seq, action: text }));
    document.body.dataset.sent = String(Number(document.body.dataset.sent || 0) + 1);
    draw();
  },
  get canMove() {
    return !!msg && msg.status === "playing" && msg.legal.length > 0 && pendingSeq === null;
  },
  get selection() { return selection; },
  set selection(value) { selection = value; },
  redraw() { draw(); },
};

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(matchId)}`);
  setConn("connecting…", "wait");
  welcomed = false;
  socket.onopen = () => {
    const hello = { type: "hello", token: token || null };
    const name = localStorage.getItem("meeple-name");
    if (name && token) hello.name = name;
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    // 4429 (this address's share: too many tabs or messages) and 1013 (the server is full)
    // say "later", not "never": the seat is kept, the page says why and tries again.
    const later = event.code === 4429 || event.code === 1013;
    const why = later ? refusal : null;
    if (later) refusal = null;
    // Any other 44xx close or an error before welcome is the server's final word (no such
    // match, a bad or cut-short token): retrying would only ask again. 4408 (hello too
    // late) is not.
    const refused =
      !later && ((event.code >= 4400 && event.code < 4500 && event.code !== 4408) || refusal !== null);
    // A token the server does not know (4403, 4400) is no seat to keep; a seat this
    // browser took back on its own becomes a spectator's page rather than a refusal.
    // The link was taken a moment ago by another tab of this browser (two tabs opened at
    // once, a rematch followed in both): the seat's own token, kept here, plays it.
    const kept = refused && token && !stopped ? heldSeat(matchId) : null;
    if (kept && kept.link === token && kept.token !== token) {
      token = kept.token;
      resumed = true;
      refusal = null;
      history.replaceState(null, "", `${location.pathname}${location.search}#token=${token}`);
      setTimeout(connect, 0);
      return;
    }
    // The link refused a moment after it was opened: asked once more a little later, when
    // another tab has kept the token it was given (and the server lets this address take
    // the seat again, had that answer been lost on the way: 2 s on, with no page on it).
    if (refused && refusalCode === "link_used" && token === link && !linkAskedAgain && !stopped) {
      linkAskedAgain = true;
      refusal = null;
      setConn("connecting…", "wait");
      setTimeout(connect, 2500);
      return;
    }
    if (refused && token) forgetSeat(matchId, token);
    if (refused && !stopped && resumed && event.code !== 4404) {
      token = null;
      resumed = false;
      refusal = null;
      history.replaceState(null, "", `${location.pathname}${location.search}`);
      setTimeout(connect, 0);
      return;
    }
    if (refused && !stopped) showRefusal(event.code, refusal);
    if (refused || stopped) {
      stopped = true;
      setConn("disconnected", "off");
      return;
    }
    // Back off (0.5 s, 1 s, 2 s ... up to 15 s) so a restarting server is not stormed.
    const delay = Math.min(15000, 500 * 2 ** retries) * (0.75 + Math.random() / 2);
    retries += 1;
    const again = `reconnecting in ${Math.ceil(delay / 1000)} s…`;
    setConn(why ? `${why} (${again})` : again, "wait");
    setTimeout(connect, delay);
  };
}

/** The resign button's word: "Call off" while the match waits for its people (resigning
 * then calls it off, and nobody wins), else "Resign". */
function resignWord() {
  return msg && msg.status === "waiting" ? "Call off" : "Resign";
}

function setConn(text, kind) {
  const node = $("conn");
  node.textContent = text;
  node.className = `conn conn-${kind}`;
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      retries = 0;
      welcomed = true;
      pendingSeq = null; // a move sent on the last connection was taken or lost: the state says
      claimSeconds = typeof message.claim_seconds === "number" ? message.claim_seconds : null;
      setConn(message.seat === null ? "watching" : "connected", "on");
      if ($("board-text-box").open) askBoardText(true); // a new connection starts without it
      // The seat's link, taken just now: the seat's own token replaces it (the link, which
      // whoever sent it holds too, plays the seat no more), in the address and kept here.
      if (message.seat !== null && message.token) {
        token = message.token;
        history.replaceState(null, "", `${location.pathname}${location.search}#token=${token}`);
        // Say it arrived: until then, should it be lost on the way, this address may take
        // the seat with its link again, and no other may.
        socket.send(JSON.stringify({ type: "ping" }));
        toast("this seat is yours in this browser: to come back, open the link here again "
          + "(or the lobby's Resume); opened in another browser it no longer plays", "info");
      }
      if (sentLink && message.seat !== null) {
        toast(`that was the link you were given for ${sentLink.name}: send it to them. `
          + "This browser plays your own seat; opened here, the link would have taken theirs", "info");
        sentLink = null;
      }
      if (message.seat !== null && token) {
        rememberSeat(matchId, token, message.seat, null, message.token ? link : null);
        if (resumed) toast("back in your seat: this browser kept it", "info");
        resumed = false;
      }
      break;
    case "state":
      if (!msg || msg.decision !== message.decision || msg.seat !== message.seat) {
        selection = builtBefore(message);
      }
      // A move on its way stays so until the state shows it (an entry of this seat's after
      // the state it was sent for), the decision it answered is over, or it is refused.
      // Another seat's choice arriving first in a simultaneous decision leaves it on its
      // way: clearing it then offered the same decision again, and a second click was
      // refused as stale though the first had been taken.
      if (pendingSeq !== null && (message.decision !== pendingDecision
        || message.log.some((e) => e.n > pendingSeq && e.seat === message.seat))) pendingSeq = null;
      const before = { msg, log };
      // A new connection or a sync is sent the log from 0 again: splice, never append.
      log = log.slice(0, message.log_start).concat(message.log);
      // Only a new entry (not a resent log) is news worth a toast.
      if (msg && message.log.some((e) => e.timeout && e.seat === message.seat && e.n > msg.seq)) {
        toast("time ran out: the computer chose for you", "error");
      }
      tellGivenUp(before.msg, message);
      msg = message;
      setTitle(); // now, not at the next frame: a tab out of sight draws no frame
      if (before.msg && askedNow(before.msg) !== askedNow(message)) {
        if (!askedNow(message)) waitingSince = performance.now();
        else if (document.hidden || performance.now() - waitingSince > CHIME_AFTER_MS) chime();
      }
      // Over, the seat is still kept: the link opened again here (or /play/<match>) is the
      // seat's end box, where a rematch offered meanwhile is accepted.
      deadlinesAt = performance.now();
      seatsAt = deadlinesAt;
      drawSoon();
      announce(...news(before.msg, before.log));
      break;
    case "presence":
      if (msg) {
        tellGivenUp(msg, { ...msg, seats: message.seats });
        msg.seats = message.seats;
        seatsAt = performance.now();
        drawSide();
      }
      break;
    case "error":
      if (!welcomed) {
        refusal = message.message;
        refusalCode = message.code || null;
        break;
      }
      // The refusal of an older move (overtaken by another seat's) can arrive after this
      // page sent its next one on the newer state: that one is still on its way, and
      // clearing it here let a second click send the same decision twice.
      if (message.move_seq === undefined || message.move_seq === pendingSeq) pendingSeq = null;
      // A tutorial's refusal of another move is its lesson's why, said in the lesson's box.
      // A move overtaken by another seat's (an opponent's Mulligan as this seat clicked) is
      // a race, not a mistake: say so in a player's words; the state comes again with it.
      if (message.code === "stale_move") toast("The match moved on before your move arrived: look again and choose.", "error");
      else if (!tutorialRefused(message)) toast(message.message, "error");
      if (msg) draw();
      break;
    case "rematch":
      followRematch(message);
      break;
    case "left":
      stopped = true;
      forgetSeat(matchId, token);
      toast("this seat was given up; the link no longer plays it", "error");
      break;
    default:
      break; // ack, pong: nothing to show
  }
}

/** The sentences a screen reader is told of the state just received, which the picture
 * shows but does not say, in the log's order and words: the moves of others since the last
 * state (and the choices a simultaneous decision reveals), each with what the game then did
 * by itself; of the seat's own new moves only that (its attack's hit or miss: the player
 * knows the move); what the game's module adds (its news()); that it is this seat's turn
 * (or, where the seat's own move leads to its next decision, what the game's prompt() asks
 * now); how the match ended. None for the first state of a page (the player reads the page). */
function news(was, wasLog) {
  if (!was) return [];
  const known = new Map(wasLog.map((e) => [e.n, e.text]));
  const parts = log.flatMap((e) => {
    if (e.seat === msg.seat) return e.n > was.seq ? e.after || [] : [];
    const told = e.n > was.seq || (known.get(e.n) === null && e.text !== null);
    return told ? [logItems(msg, [e])[0].textContent.trim()] : [];
  });
  // What the game's picture draws of the new state but the log does not write (Erd's combat).
  if (module && typeof module.news === "function") parts.push(module.news(was, msg));
  if (msg.status === "finished" && was.status !== "finished") parts.push(endWords(msg));
  else if (msg.legal.length && (!was.legal.length || was.decision !== msg.decision)) {
    // The seat's own move led straight to its next decision (Squad Combat's defense die, then
    // its reaction window): the game's prompt says what is asked now, where "Your move." said
    // alone again and again (a dozen times a Squad Combat match) told nothing new.
    const again = was.legal.length && !parts.some(Boolean) && module && typeof module.prompt === "function";
    parts.push(again ? module.prompt(msg) : turnText());
  }
  return parts;
}

let givenUpTold = null; // the seats given up that the page knows of, each told once

/** In a match of three or more a person may resign, or be claimed from, while the others
 * play on: the others are told once, as it happens (the seat list alone changed, without a
 * word). Seats given up before the page opened are not news. */
function tellGivenUp(was, now) {
  const given = now.seats.flatMap((s, seat) => (s && s.resigned ? [seat] : []));
  if (givenUpTold === null) {
    givenUpTold = new Set(given);
    return;
  }
  for (const seat of given.filter((s) => !givenUpTold.has(s))) {
    givenUpTold.add(seat);
    if (seat === now.seat || now.status !== "playing") continue;
    const how = now.seats[seat].abandoned ? "left the match" : "resigned";
    toast(`${seatLabel(was || now, seat)} ${how}: the computer plays their seat.`, "info");
  }
}

// The seat that asks for the rematch hears of it twice (the reply, and the server's message
// to every client): one navigation only, to the latest address with a seat token.
// Two would abort each other.
let rematchTarget = null;
let rematchTimer = null;

function followRematch(message) {
  const target = message.token
    ? `/play/${encodeURIComponent(message.match)}#token=${message.token}`
    : `/play/${encodeURIComponent(message.match)}`;
  if (rematchTarget && !message.token) return; // a seat's later link wins (the earlier is dead)
  if (!rematchTarget) toast("a rematch has started: taking you there", "info");
  rematchTarget = target;
  clearTimeout(rematchTimer);
  rematchTimer = setTimeout(() => { location.href = rematchTarget; }, 600);
}

let frameAsked = false; // a draw is asked for the next frame

/** A state from the server is drawn in the next frame, once however many came before it:
 * a computer answers at once, and each state of a burst drawn on its own laid the page out
 * again for a picture nobody saw. (A tab out of sight draws when it is shown again.) A
 * click's own redraw stays at once: the player's next click meets the new picture. */
function drawSoon() {
  if (frameAsked) return;
  frameAsked = true;
  requestAnimationFrame(() => { frameAsked = false; draw(); });
}

function sendIfOpen(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

async function draw() {
  if (!msg) return;
  if (moduleFor !== msg.game || !module) {
    // Tried again on the next state if it failed (a server restarting mid-load).
    moduleFor = msg.game;
    module = await loadDrawing(msg.game);
  }
  setTitle();
  $("title").textContent = msg.title + (msg.seat === null ? " (watching)" : ` — you are ${seatLabel(msg, msg.seat)}`);
  const view = { ...msg, log };
  drawWith(module, $("board"), view, ui);
  keepBuilding(); // after drawing: a click changes the selection, then asks for a redraw
  drawSide();
  drawBoardText();
  showHint(msg);
  showNameBox(msg, sendIfOpen, matchId);
  showTutorial(msg);
  // Set once the page shows this state, so that whoever waits on them (the browser tests)
  // sees the drawn picture, not the one before.
  document.body.dataset.seq = String(msg.seq);
  document.body.dataset.status = msg.status;
}

/** "Board as text": while the box is open the server sends, with each state, the board
 * as the terminal draws it for this page's seat (a spectator's: a spectator's), for a
 * reader who cannot see the picture. Asked for only while open: drawing it costs the
 * server. */
function askBoardText(show) {
  sendIfOpen({ type: "board_text", show });
}

function drawBoardText() {
  if (msg && $("board-text-box").open) showBoardText(msg, msg.board_text);
}

/** The tab's title: "Your move" first while this seat is asked a move it has not sent,
 * "Game over" once the match is, as lichess marks its tabs, so that a player who went to
 * another tab while the others thought sees from the tab strip that it is their turn. */
function setTitle() {
  const m = msg;
  const mark = m.status === "finished" ? "Game over · " : askedNow(m) ? "Your move · " : "";
  document.title = `${mark}${m.title} — meeple`;
}

/** Whether state ``m`` asks this seat a move it has not sent yet. */
function askedNow(m) {
  return m.status === "playing" && m.seat !== null && m.to_act.includes(m.seat)
    && !m.chosen.includes(m.seat) && pendingSeq === null;
}

/** The Sound button says whether the chime is on (js/chime.js); a click turns it over. */
function drawSound() {
  $("sound").textContent = soundOn() ? "Sound: on" : "Sound: off";
}

function turnText() {
  const m = msg;
  if (m.status === "finished") return "Game over";
  if (m.status === "waiting") {
    const absent = absentPeople(m);
    // Only a player holds the links to send; a spectator is told only whom the match awaits.
    // A listed match's open seats need no link: anyone takes them from the lobby. A page
    // that holds no link to send (a friend's) says how the others come, not what to share.
    const anyone = absent.every((s) => (m.open_seats || []).includes(s.seat));
    const share = m.seat === null ? "" : linksToSend(m).length ? " — send the link below"
      : anyone ? " — anyone can take the seat from the lobby" : " — they join with their seat's link";
    return `Waiting for ${absent.map((s) => seatLabel(m, s.seat)).join(", ")} to join${share}`;
  }
  // A person who resigned a match of three or more watches the computer play their seat.
  if (resignedHere(m)) return `You resigned: ${watchedTurn(m)}`;
  const mine = m.seat !== null && m.to_act.includes(m.seat);
  if (mine && pendingSeq !== null) return "Move sent…";
  const thinking = thinkers(m);
  if (m.seat !== null && m.chosen.includes(m.seat)) {
    return thinking.length ? `You have chosen: ${thinking.join(" and ")} ${thinking.length > 1 ? "are" : "is"} thinking…`
      : "You have chosen: waiting for the other player";
  }
  // A memorise step (msg.memorise: its seconds) asks every seat at once, but no choice:
  // each only says it has looked.
  const choosing = typeof m.memorise !== "number" && (m.chosen.length || m.to_act.length > 1);
  if (mine) return choosing ? "Your choice (both choose at once)" : "Your move";
  return watchedTurn(m);
}

/** Whose turn it is to a page that is not to act: the computer thinking, or who moves. */
function watchedTurn(m) {
  const thinking = thinkers(m);
  if (thinking.length && thinking.length === m.to_act.filter((s) => !m.chosen.includes(s)).length) {
    return `${thinking.join(" and ")} ${thinking.length > 1 ? "are" : "is"} thinking…`;
  }
  const others = m.to_act.map((s) => seatLabel(m, s)).join(" and ");
  // A step that asks no move of them says what they are doing (The Triangle Clock's seats
  // memorising an order), where "Tock to move" or "are choosing" would be wrong.
  const doing = module && typeof module.busyWords === "function" ? module.busyWords(m) : null;
  if (doing) return `${others} ${m.to_act.length > 1 ? "are" : "is"} ${doing}`;
  return m.to_act.length > 1 ? `${others} are choosing` : `${others} to move`;
}

/** True on the page of a person who resigned (the computer plays their seat to the end):
 * they have nothing left to move or resign. */
function resignedHere(m) {
  return m.seat !== null && Boolean((m.seats[m.seat] || {}).resigned);
}

/** The computer seats still to act ("Computer (hard)"): the server is choosing their move. */
function thinkers(m) {
  if (m.status !== "playing") return [];
  // A tutorial's scripted seat never thinks: it answers from its file once you have moved.
  return m.to_act.filter((s) => !m.chosen.includes(s) && (m.seats[s] || {}).kind === "agent"
    && (m.seats[s] || {}).agent !== "tutorial")
    .map((s) => {
      // A seat the computer took from a person (resigned, or claimed from) keeps the
      // person's name, but it is the computer that thinks.
      const seat = m.seats[s] || {};
      if (seat.resigned) {
        const name = (m.seat_names || [])[s] ?? `seat ${s}`;
        return seat.label && seat.label !== name ? `${name} (the computer, for ${seat.label})` : `${name} (the computer)`;
      }
      const label = playerOf(m, s) || seatLabel(m, s);
      // Two computers (or a seat colour the label lacks) need the seat's name to tell apart.
      return m.seats.filter((x) => x.kind === "agent").length > 1 ? seatLabel(m, s) : label;
    });
}

function drawSide() {
  const had = document.activeElement;
  const fromSide = had && document.querySelector(".side").contains(had);
  drawSideParts();
  if (fromSide) keepSideFocus(had);
}

/** A control of the side the keyboard was on, taken away by the state just drawn (Resign
 * and the move box at the match's end; a legal move's or the rematch's button, drawn anew)
 * must not drop the focus to the page, where a keyboard player starts again from the top
 * and a screen reader falls silent: it goes to the same control drawn anew, else to the end
 * box's heading, else to the picture. */
function keepSideFocus(had) {
  const now = document.activeElement;
  if (now && now !== document.body && now.offsetParent !== null) return;
  const same = (had.id && $(had.id)) || [...document.querySelectorAll(".side .legal-move")]
    .find((b) => had.classList.contains("legal-move") && b.textContent === had.textContent);
  const heading = $("end").hidden ? null : $("end").querySelector(".end-title");
  const target = same && same.offsetParent !== null ? same : heading || $("board");
  if (!target.hasAttribute("tabindex") && !target.matches("button, a, input, select")) target.setAttribute("tabindex", "-1");
  target.focus();
}

let legalDrawn = null; // the legal moves the side lists: drawn anew only for a new state
let logDrawn = { entries: [], labels: "" }; // the log entries drawn, and the seats' names then

/** The move log, drawn anew from its first entry that changed (a new state adds a few at its
 * end; a revealed choice rewrites the last ones): a long match's whole log, drawn anew at
 * every state, had the browser restyle hundreds of entries for each move. All of it is
 * drawn anew when a seat's name or label changes. */
function drawLog(m) {
  const list = $("log");
  const labels = JSON.stringify([m.seat, ...m.seats.map((s) => [seatLabel(m, s.seat), seatTitle(m, s.seat)])]);
  let same = 0;
  if (labels === logDrawn.labels) {
    while (same < log.length && same < logDrawn.entries.length && log[same] === logDrawn.entries[same]) same += 1;
  }
  if (same === log.length && same === logDrawn.entries.length) return;
  while (list.children.length > same) list.lastElementChild.remove();
  list.append(...logItems(m, log.slice(same)));
  logDrawn = { entries: log, labels };
  list.scrollTop = list.scrollHeight;
}

/** The people's seats nobody has taken yet. */
function absentPeople(m) {
  return m.seats.filter((s) => s.kind === "person" && !s.joined);
}

/** While the match waits for people this browser's creator invited, the links kept to send
 * them (js/seats.js); none to a spectator or once they have joined. */
function linksToSend(m) {
  if (m.status !== "waiting" || m.seat === null) return [];
  const waiting = absentPeople(m).map((s) => s.seat);
  return invitesOf(matchId).filter((i) => waiting.includes(i.seat));
}

/** The links to send, under the turn: the lobby showed them once, and a creator who
 * clicked Play first had lost them. */
function drawInvites(m) {
  const links = linksToSend(m);
  const box = $("invites");
  box.hidden = !links.length;
  box.replaceChildren(...links.map((i) => sendLine(i.name, i.url)));
}

function drawSideParts() {
  const m = msg;
  const turn = $("turn");
  turn.textContent = turnText();
  drawInvites(m);
  turn.className = `turn ${m.seat !== null && m.legal.length && pendingSeq === null ? "turn-mine" : ""}`
    + (thinkers(m).length && !(m.seat !== null && m.legal.length) ? " turn-thinking" : "");
  // A game that counts points during play says which number its board shows (Erosion's
  // points now, before an era is scored), so that the seat list shows the same.
  const all = module && typeof module.seatScores === "function" ? module.seatScores(m) : scoresOf(m);
  const scores = all && all.length === m.seats.length ? all : null; // per seat only
  $("seats").replaceChildren(...m.seats.map((s) => el("li", {
    class: `seat seat-${s.seat} ${m.to_act.includes(s.seat) ? "to-act" : ""} ${s.seat === m.seat ? "me" : ""}`,
  },
  el("span", { class: `dot ${s.connected ? "dot-on" : "dot-off"}`, title: s.connected ? "connected" : "disconnected" }),
  el("span", { class: "seat-name", title: seatTitle(m, s.seat) }, seatLabel(m, s.seat, true)),
  el("span", { class: "seat-kind", title: s.agent ? `agent ${s.agent}` : null },
    s.agent === "tutorial" ? "script" : s.kind === "agent" ? "computer" : s.joined ? "person"
      : (m.open_seats || []).includes(s.seat) ? "open seat" : "invited", // kept for its link
    s.abandoned ? ", left" : s.resigned ? ", resigned" : isAway(s) ? ", away" : ""),
  m.chosen.includes(s.seat) ? el("span", { class: "has-chosen" }, "has chosen") : null,
  m.status === "playing" && s.kind === "agent" && s.agent !== "tutorial" && m.to_act.includes(s.seat)
    && !m.chosen.includes(s.seat) ? el("span", { class: "thinking" }, "thinking…") : null,
  scores ? el("span", { class: "seat-score" }, String(scores[s.seat])) : null)));
  const legal = $("legal");
  if (legalDrawn !== m.legal) legal.replaceChildren(...m.legal.map((a) => el("li", {},
    el("button", { type: "button", class: "legal-move", onclick: () => { $("notation").value = a.text; $("notation").focus(); } }, a.text))));
  legalDrawn = m.legal;
  // A newcomer read "type a move (notation)" as a word they were meant to know: one of the
  // moves they can make, as its text, shows what typing takes.
  $("notation").placeholder = m.legal.length ? `or type a move, as: ${m.legal[0].text}` : "or type a move";
  $("legal-box").hidden = !m.legal.length;
  $("typed").hidden = m.seat === null || m.status !== "playing" || resignedHere(m);
  // Before every seat is taken the same button calls the match off: nobody wins.
  $("resign").hidden = m.seat === null || m.status === "finished" || resignedHere(m);
  $("sound").hidden = m.seat === null || m.status === "finished"; // only a seat is chimed
  if (!resignArmed) $("resign").textContent = resignWord();
  drawLog(m);
  drawEndBox();
  drawDeal();
  tick();
}

/** The people this seat may claim from, or soon may: each closed their page while the
 * match waits on them (the server says how long ago: `away`). */
function claimable(m) {
  const me = m.seat === null ? null : m.seats[m.seat];
  if (!me || me.kind !== "person" || me.resigned || m.status !== "playing" || m.tutorial) return [];
  return m.seats.filter((s) => s.seat !== m.seat && s.kind === "person" && !s.resigned
    && isAway(s) && m.to_act.includes(s.seat));
}

/** Someone left while the match waits on them: the box says so and counts down to when
 * this seat may claim from them (the win with two seats, their seat for the computer with
 * more), then offers it, so that nobody waits on a page closed for good. */
function drawClaim() {
  const box = $("claim");
  const gone = msg && claimSeconds !== null ? claimable(msg) : [];
  const passed = (performance.now() - seatsAt) / 1000;
  const rows = gone.map((s) => ({ seat: s.seat, left: Math.max(0, Math.ceil(claimSeconds - s.away - passed)) }));
  const shown = JSON.stringify(rows);
  if (shown === claimShown) return;
  claimShown = shown;
  box.hidden = !rows.length;
  const two = msg && msg.seats.length === 2;
  box.replaceChildren(...rows.map(({ seat, left }) => {
    const who = seatLabel(msg, seat);
    const offer = two ? "claim the win" : `let the computer play ${who}`;
    // The count-down is no live region (a screen reader would read it every second): the
    // moment the claim is open is told once, as the page tells its news, in a toast.
    if (left <= 0 && !claimTold.has(seat)) {
      claimTold.add(seat);
      toast(`${who} has gone and not come back: you may ${offer}.`, "info");
    }
    if (left > 0) {
      claimTold.delete(seat);
      const wait = left >= 60 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : `${left} s`;
      return el("p", {}, `${who} has gone (their page is closed) and the match waits on them. If they are not back in ${wait}, you may ${offer}.`);
    }
    return el("p", {}, `${who} has gone and not come back. `,
      el("button", { type: "button", class: "primary", onclick: () => claim(seat) },
        two ? "Claim the win" : `Let the computer play ${who}`));
  }));
}

function claim(seat) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "claim", seat }));
  } else {
    toast("not connected: the claim was not sent", "error");
  }
}

/** The seed's commitment from the start, and once the match is over the seed, its salt and
 * the check, made here in the browser: the deal was fixed before anyone moved. */
async function drawDeal() {
  const m = msg;
  const box = $("deal");
  box.hidden = !m.seed_commitment;
  if (!m.seed_commitment) return;
  const short = m.seed_commitment.slice(0, 12);
  if (m.seed === null || m.seed === undefined || !m.seed_salt) {
    $("deal-summary").textContent = `Fair deal: sealed at the start (${short}…)`;
    $("deal-text").textContent = "The server drew this match's seed, which decides every hidden card, "
      + "before the first move, and published its fingerprint (SHA-256 of a salt and the seed): "
      + m.seed_commitment + ". The seed itself is shown when the match is over, so anyone can check "
      + "that the deal was not arranged.";
    return;
  }
  const bytes = new TextEncoder().encode(`${m.seed_salt}${m.seed}`);
  let ok = null;
  if (crypto.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    ok = hex === m.seed_commitment.toLowerCase();
  }
  if (msg !== m) return; // a newer state was drawn meanwhile
  $("deal-summary").textContent = ok === null ? "Fair deal: seed shown"
    : ok ? "Fair deal: checked ✓" : "Fair deal: check FAILED";
  box.classList.toggle("deal-failed", ok === false);
  $("deal-text").textContent = `Seed ${m.seed}, salt ${m.seed_salt}. SHA-256 of salt then seed: `
    + (ok === null ? "(this browser cannot compute it here)" : ok ? "equals" : "does NOT equal")
    + ` the fingerprint published at the start, ${m.seed_commitment}. In a shell: `
    + `printf '%s%s' ${m.seed_salt} ${m.seed} | sha256sum`;
}

function drawEndBox() {
  const m = msg;
  const extra = [];
  if (m.status === "finished") {
    const links = el("p", { class: "end-links" });
    // A tutorial has no rematch: its box links to a real game instead. Nor has a match
    // with a person's seat nobody took (called off, expired): it would be waited on for good.
    const untaken = m.seats.some((s) => s.kind === "person" && !s.joined);
    if (m.seat !== null && token && !m.tutorial && !untaken) {
      const offer = m.rematch_offer;
      const names = (seats) => seats.map((s) => seatLabel(m, s)).join(" and ");
      const others = (seats) => (seats || []).filter((s) => s !== m.seat);
      if (m.rematch) {
        links.append(el("button", { type: "button", class: "primary", id: "rematch", onclick: askRematch }, "Go to the rematch"));
      } else if (offer && offer.accepted.includes(m.seat)) {
        // Asked: the others answer on their own pages (the computer always accepts). One
        // who declined is said below; the button waits on nobody then.
        const declined = others(offer.declined).length > 0;
        links.append(el("button", { type: "button", id: "rematch", disabled: true },
          declined ? "Rematch declined" : `Rematch offered: waiting for ${names(offer.waiting) || "the others"}`));
        // Waiting on someone whose page is closed may be waiting for ever: say so, as the
        // claim box does during play, so the one who offered knows why nothing happens.
        const gone = offer.waiting.filter((seat) => {
          const s = m.seats.find((x) => x.seat === seat);
          return s && isAway(s);
        });
        if (gone.length) {
          extra.push(el("p", { class: "rematch-gone", id: "rematch-gone", role: "status" },
            `${names(gone)} ${gone.length > 1 ? "have" : "has"} gone (their page is closed): `
            + "the rematch starts if they come back and accept."));
        }
      } else if (offer && others(offer.accepted).length && !offer.declined.includes(m.seat)) {
        // The box may be out of sight (a phone's player is at the picture, far above it):
        // an offer is told once in a toast too, as a claim that opens is.
        const offers = (seats) => `${names(seats)} ${seats.length > 1 ? "offer" : "offers"} a rematch`;
        const fresh = others(offer.accepted).filter((s) => !offerTold.has(s));
        fresh.forEach((s) => offerTold.add(s));
        if (fresh.length) toast(`${offers(fresh)}: Accept or Decline it where the result is shown.`, "info");
        extra.push(el("p", { class: "rematch-offer", id: "rematch-offer", role: "status" },
          `${offers(others(offer.accepted))}.`));
        links.append(el("button", { type: "button", class: "primary", id: "rematch", onclick: askRematch }, "Accept"),
          el("button", { type: "button", id: "decline-rematch", onclick: declineRematch }, "Decline"));
      } else if (!offer || !offer.declined.includes(m.seat)) {
        links.append(el("button", { type: "button", class: "primary", id: "rematch", onclick: askRematch }, "Rematch"));
      }
      if (offer && others(offer.declined).length) {
        extra.push(el("p", { class: "rematch-declined", id: "rematch-declined", role: "status" },
          `${names(others(offer.declined))} declined the rematch.`));
      }
    } else if (m.rematch) {
      links.append(el("a", { class: "button", href: `/play/${encodeURIComponent(m.rematch)}` }, "Watch the rematch"));
    }
    // A match without a move has nothing to replay.
    if (m.seq > 0) links.append(el("a", { class: "button", id: "replay-link", href: `/replay?match=${encodeURIComponent(m.match)}` }, "Replay"));
    links.append(el("a", { class: "button", href: "/" }, "Lobby"));
    extra.push(links);
  }
  drawEnd($("end"), m, extra);
}

/** The whole page says why it cannot show this match, and links to the lobby, nothing else. */
function showRefusal(code, text) {
  const title = code === 4404 ? "No such match" : "This link does not open the match";
  const detail = text || (code === 4404 ? `there is no match ${matchId}` : `the server refused it (code ${code})`);
  document.title = `${title} — meeple`;
  $("title").textContent = "";
  document.querySelector("main").replaceChildren(el("section", { class: "refused", id: "refused", role: "alert" },
    el("h2", {}, title),
    el("p", {}, `${detail[0].toUpperCase()}${detail.slice(1)}.`),
    el("p", { class: "refused-links" }, el("a", { class: "button primary", href: "/" }, "Go to the lobby"),
      // The match is there to watch, whatever the link: a spectator's page, with no token.
      ...(code === 4404 ? [] : [el("a", { class: "button", id: "watch-instead", href: `/play/${encodeURIComponent(matchId)}` }, "Watch the match")]))));
  document.body.dataset.status = "refused";
}

let rematchAsked = false; // once at a time: a second ask hands a seat a new link, the first dead

async function askRematch() {
  if (rematchAsked) return;
  rematchAsked = true;
  try {
    const reply = await api(`/api/matches/${encodeURIComponent(matchId)}/rematch`, { token });
    // Offered, not made yet: the others are asked on their pages; the state shows it.
    if (reply.match) followRematch({ match: reply.match, token: reply.seat && reply.seat.token });
  } catch (error) {
    toast(error.message, "error");
  } finally {
    rematchAsked = false;
  }
}

async function declineRematch() {
  try {
    await api(`/api/matches/${encodeURIComponent(matchId)}/rematch/decline`, { token });
  } catch (error) {
    toast(error.message, "error");
  }
}

function tick() {
  if (!msg) return;
  const passed = (performance.now() - deadlinesAt) / 1000;
  const parts = Object.entries(msg.deadlines || {}).map(([seat, seconds]) => {
    const left = Math.max(0, Math.ceil(seconds - passed));
    return `${Number(seat) === msg.seat ? "you" : seatLabel(msg, Number(seat))}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  });
  const clock = $("clock");
  // Four times a second: written only when it changes, or the page lays itself out again
  // for nothing all game long.
  const text = parts.length ? `clock  ${parts.join("  ")}` : "";
  if (clock.textContent !== text) clock.textContent = text;
  clock.classList.toggle("clock-low", Object.values(msg.deadlines || {}).some((s) => s - passed < 10));
  drawClaim();
}

function setUp() {
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation").value.trim();
    if (!text) return;
    ui.move(text);
    $("notation").value = "";
  });
  $("board-text-box").addEventListener("toggle", () => {
    askBoardText($("board-text-box").open);
    drawBoardText();
  });
  drawSound();
  $("sound").addEventListener("click", () => {
    setSound(!soundOn());
    drawSound();
  });
  $("sync").addEventListener("click", () => {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync" }));
    }
  });
  // Resigning asks once more on the button itself (a browser confirm() can be blocked).
  $("resign").addEventListener("click", () => {
    const button = $("resign");
    if (!resignArmed) {
      resignArmed = true;
      button.textContent = `Really ${resignWord().toLowerCase()}? ${CLICK[0].toUpperCase()}${CLICK.slice(1)} again`;
      setTimeout(() => { resignArmed = false; button.textContent = resignWord(); }, 4000);
      return;
    }
    resignArmed = false;
    button.textContent = resignWord();
    socket.send(JSON.stringify({ type: "resign" }));
  });
  // A drawing may lay itself out for the width it has (a phone turned round): draw again.
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(draw, 150);
  });
  setInterval(tick, 250);
  setInterval(() => {
    sendIfOpen({ type: "ping" });
  }, 25000);
  if (!matchId) {
    showRefusal(4404, "the address names no match");
    return;
  }
  connect();
}

titlesOnTap();
setUp();
