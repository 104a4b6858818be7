// The seats this browser holds: each match's seat token, kept in localStorage (as
// boardgame.io's lobby and lichess do), so that a player who leaves the game page (the
// logo, a closed tab) finds "Resume" in the lobby and gets the seat back at /play/ID.
//
// A token stays in this browser: it is read from the address's fragment or a REST reply
// and goes only into the game page's fragment and its WebSocket hello, never into a query
// string. At most KEPT matches, the newest; a match is forgotten when the server says the
// token is not a seat of it (kept once it is over: its end box is where a rematch is
// accepted, reached again by the seat's link or /play/<match>).

const KEY = "meeple-seats";
export const KEPT = 50;

/** The kept seats, oldest first: `[{match, token, seat}]`. */
function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(kept) ? kept.filter((s) => s && typeof s.match === "string" && typeof s.token === "string") : [];
  } catch {
    return []; // no storage (a private window may refuse it), or something else's text
  }
}

function save(kept) {
  try {
    localStorage.setItem(KEY, JSON.stringify(kept.slice(-KEPT)));
  } catch {
    // Storage full or refused: the seat is still in the page's address.
  }
}

/** Keep a seat's token for a match, as the newest (the newest KEPT matches are kept).
 * ``invites``: the links the creator was given for the match's other people's seats,
 * `[{seat, name, url}]`, which the game page shows while the match waits for them (the
 * lobby's panel that showed them is gone once its Play is clicked); kept when the seat is
 * remembered again without them. ``link``: the seat's link that took it, given the seat's
 * own token then (the server's answer), so that the link opened again here plays the
 * seat; kept as the invites are. */
export function rememberSeat(match, token, seat, invites = null, link = null) {
  if (!match || !token) return;
  const kept = load();
  const before = kept.find((s) => s.match === match && (s.token === token || s.seat === seat));
  const links = invites || (before && before.invites);
  const taken = link || (before && before.link);
  const entry = { match, token, seat };
  if (Array.isArray(links) && links.length) entry.invites = links;
  if (typeof taken === "string" && taken !== token) entry.link = taken;
  save([...kept.filter((s) => s.match !== match), entry]);
}

/** The links to send kept with this browser's seat of a match (rememberSeat), each
 * `{seat, name, url}`; none where this browser did not create the match. */
export function invitesOf(match) {
  const held = heldSeat(match);
  const links = held && Array.isArray(held.invites) ? held.invites : [];
  return links.filter((i) => i && Number.isInteger(i.seat) && typeof i.name === "string" && typeof i.url === "string");
}

/** The seats this browser holds, newest first: `[{match, token, seat}]`. */
export function keptSeats() {
  return load().reverse();
}

/** The seat this browser holds in a match, `{match, token, seat}`, or null. */
export function heldSeat(match) {
  return load().find((s) => s.match === match) || null;
}

/** Forget a match's seat (it is over, or its token is no seat any more). With a token,
 * only if that is the token kept. */
export function forgetSeat(match, token = null) {
  const kept = load();
  const left = kept.filter((s) => s.match !== match || (token !== null && s.token !== token));
  if (left.length !== kept.length) save(left);
}

/** The seat a game page opened with ``link`` (its address's token, or null) plays:
 * `{token, resumed, sentLink}`.
 * - No token, but this browser holds a seat in the match: that seat is taken back (as
 *   lichess does), ``resumed``; should the server not know it any more, the page forgets
 *   it and watches instead.
 * - The seat's link opened again (from the message it came in) after this browser took the
 *   seat with it: the link plays it no more, the seat's own token kept here does.
 * - The link of another person's seat that this browser was given to send, opened here (to
 *   see that it works): it would take that seat from the friend it was meant for, so this
 *   browser's own seat opens instead; ``sentLink`` (`{seat, name, url}`) says whose. */
export function openingSeat(match, link) {
  const held = heldSeat(match);
  if (!link) return held ? { token: held.token, resumed: true, sentLink: null } : { token: null, resumed: false, sentLink: null };
  const linkOf = (url) => { try { return new URLSearchParams(new URL(url).hash.slice(1)).get("token"); } catch { return null; } };
  const sentLink = held && held.token !== link ? invitesOf(match).find((i) => linkOf(i.url) === link) || null : null;
  const token = held && (held.link === link || sentLink) ? held.token : link;
  return { token, resumed: false, sentLink };
}

/** The game page's address for a seat (the token in the fragment, never sent). */
export function seatUrl(match, token) {
  return `/play/${encodeURIComponent(match)}#token=${token}`;
}
