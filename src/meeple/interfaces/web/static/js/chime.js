// The game page's chime: a short two-note tone when this seat is asked a move after a wait,
// drawn by the Web Audio API (no sound file to fetch). Like lichess's and Board Game
// Arena's, it is for the player who looked away while the others thought; a reply that
// comes while the player is looking, as the computer's does, sounds nothing.
// The person's choice (the "Sound" button) is kept in this browser for every match.

const KEY = "meeple.sound";
let audio = null;

/** Whether the player wants the chime (on unless they turned it off in this browser). */
export function soundOn() {
  try { return localStorage.getItem(KEY) !== "off"; } catch { return true; }
}

/** Keep the player's choice for every match in this browser. */
export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* no storage: this page only */ }
}

/** The page's audio, made at the person's first click or key: a browser lets a page sound
 * only after the person has done something on it. */
function unlock() {
  if (!audio && typeof AudioContext === "function") audio = new AudioContext();
  if (audio && audio.state === "suspended") audio.resume();
}
for (const kind of ["pointerdown", "keydown"]) addEventListener(kind, unlock, { capture: true });

/** Sound the chime, where the player wants it; counted in the body's data-chimes (for the
 * tests: a headless browser's sound is heard by nobody). */
export function chime() {
  if (!soundOn()) return;
  document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  if (!audio || audio.state !== "running") return; // nothing clicked here yet: silent
  const start = audio.currentTime;
  for (const [offset, pitch] of [[0, 660], [0.14, 880]]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.0001, start + offset);
    volume.gain.exponentialRampToValueAtTime(0.12, start + offset + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
    tone.connect(volume).connect(audio.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.32);
  }
}
