// What a projector board needs whatever it shows (the tournament's board, a club's season board):
// the largest font at which it fits the screen at once, a field too large for the smallest one
// scrolled by itself (slowly, pausing at either end, or a page at a time every few seconds for
// whoever asks for less motion), and the screen kept awake where the browser allows it.

const SMALLEST = 14; // px: still read from the back of a room at 1280×720
const LARGEST = 48;
const SCROLL_PX_PER_S = 40;
const PAUSE_MS = 4000;
const PAGE_MS = 9000;

/**
 * Moves `box` through its overflow: a slow scroll with a pause at the top and the bottom, or with
 * reduced motion a page at a time; only between run(true) and run(false), one timer at a time.
 */
export function autoScroll(box) {
  const still = matchMedia('(prefers-reduced-motion: reduce)');
  let timer = 0;
  let frame = 0;
  let active = false;
  const clear = () => { clearTimeout(timer); cancelAnimationFrame(frame); };
  const atEnd = () => box.scrollTop + box.clientHeight >= box.scrollHeight - 1;
  function step() {
    clear();
    if (!active) return;
    if (still.matches) {
      timer = setTimeout(() => {
        box.scrollTop = atEnd() ? 0 : box.scrollTop + Math.max(box.clientHeight - 40, 40);
        step();
      }, PAGE_MS);
      return;
    }
    if (atEnd()) {
      timer = setTimeout(() => { box.scrollTop = 0; timer = setTimeout(glide, PAUSE_MS); }, PAUSE_MS);
      return;
    }
    glide();
  }
  let last = 0;
  let position = 0;
  function glide() {
    last = performance.now();
    position = box.scrollTop;
    const move = (now) => {
      position += ((now - last) / 1000) * SCROLL_PX_PER_S;
      last = now;
      box.scrollTop = position;
      if (atEnd()) step();
      else frame = requestAnimationFrame(move);
    };
    frame = requestAnimationFrame(move);
  }
  still.addEventListener('change', step);
  return {
    run(on) {
      const was = active;
      active = on;
      if (!on) { clear(); box.scrollTop = 0; } else if (!was) timer = setTimeout(step, PAUSE_MS);
    },
    stop() { active = false; clear(); still.removeEventListener('change', step); },
  };
}

/** Keeps the screen on while the board shows, where the browser allows it (a secure origin). */
export function keepAwake() {
  let lock = null;
  let stopped = false;
  const ask = async () => {
    if (stopped || document.visibilityState !== 'visible' || !navigator.wakeLock || (lock && !lock.released)) return;
    try { lock = await navigator.wakeLock.request('screen'); } catch { lock = null; }
  };
  document.addEventListener('visibilitychange', ask);
  ask();
  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', ask);
    lock?.release().catch(() => {});
  };
}

/**
 * Draws with `drawAt(px)` at the largest font (whole px) at which `fits()`; at the smallest, and
 * scrolling with `scroller`, when even that does not fit. `simpler()`, when given, is asked for
 * a plainer layout before the smallest font gives up (true when it made one).
 */
export function fitToScreen(drawAt, fits, scroller, simpler = () => false) {
  let [low, high] = [SMALLEST, LARGEST];
  drawAt(low);
  while (!fits() && simpler()) drawAt(low);
  if (!fits()) {
    scroller.run(true);
    return;
  }
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    drawAt(middle);
    if (fits()) low = middle;
    else high = middle - 1;
  }
  drawAt(low);
  scroller.run(false);
}
