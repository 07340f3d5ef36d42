// A line chart of a few series (running totals round by round, a member's rating match by match)
// drawn as SVG by the app itself. Each series differs by colour (the Okabe-Ito palette, set for
// light and dark in app.css as --chart-0 … --chart-7), by marker shape and by dash pattern, and is
// named at the end of its line, so nothing depends on telling colours apart. The picture is hidden
// from screen readers; they read the same numbers from a table (rows: x, columns: series).
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = 8;
// As many of each as colours: a Tschau Sepp or Sea Change match has up to eight sides.
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '10 4', '3 3 8 3', '1 2', '12 3 2 3 2 3'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'down', 'cross', 'plus', 'ring'];
// Drawn on a 320-unit-wide canvas, about the width of a panel on a 360 px phone, so 13-unit text
// shows at ~13 px there; app.css caps the width so it does not grow huge on a wide screen.
const WIDTH = 320;
const HEIGHT = 210;
const PAD = { top: 12, right: 92, bottom: 34, left: 44 };
const LABEL_GAP = 14;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value != null) el.setAttribute(key, String(value));
  el.append(...children.flat(Infinity).filter((child) => child != null && child !== false));
  return el;
}

/**
 * About `count` round tick values (steps of 1, 2 or 5 times a power of ten) covering lo…hi;
 * `whole`: steps of at least 1, for numbers that are never fractions (points, penalty points).
 */
export function ticks(lo, hi, count = 4, whole = false) {
  if (lo === hi) return [lo];
  const rough = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(whole ? 1 : 0, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough));
  const values = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) values.push(Number(v.toPrecision(12)));
  return values;
}

function marker(kind, x, y) {
  const r = 3.5;
  switch (kind) {
    case 'square': return svg('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r });
    case 'triangle': return svg('path', { d: `M${x},${y - r - 1}L${x + r + 1},${y + r}L${x - r - 1},${y + r}Z` });
    case 'diamond': return svg('path', { d: `M${x},${y - r - 1}L${x + r + 1},${y}L${x},${y + r + 1}L${x - r - 1},${y}Z` });
    case 'down': return svg('path', { d: `M${x},${y + r + 1}L${x + r + 1},${y - r}L${x - r - 1},${y - r}Z` });
    case 'cross': return svg('path', { d: `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`, fill: 'none', 'stroke-width': 2 });
    case 'plus': return svg('path', { d: `M${x - r - 1},${y}H${x + r + 1}M${x},${y - r - 1}V${y + r + 1}`, fill: 'none', 'stroke-width': 2 });
    case 'ring': return svg('circle', { cx: x, cy: y, r, fill: 'var(--panel)', 'stroke-width': 2 });
    default: return svg('circle', { cx: x, cy: y, r });
  }
}

/** Labels at the lines' ends pushed apart so that none overlaps the next, kept inside the plot. */
function spread(labels, top, bottom) {
  const sorted = [...labels].sort((a, b) => a.y - b.y);
  for (let i = 1; i < sorted.length; i += 1) sorted[i].y = Math.max(sorted[i].y, sorted[i - 1].y + LABEL_GAP);
  const overflow = sorted.length ? sorted[sorted.length - 1].y - bottom : 0;
  if (overflow > 0) for (const label of sorted) label.y -= overflow;
  for (let i = sorted.length - 2; i >= 0; i -= 1) sorted[i].y = Math.min(sorted[i].y, sorted[i + 1].y - LABEL_GAP);
  for (const label of sorted) label.y = Math.max(label.y, top);
}

/** A name short enough for the space right of the plot; the table keeps it whole. */
function shortName(name) {
  return name.length > 11 ? `${name.slice(0, 10)}…` : name;
}

function table({ title, xLabel, series, formatX, formatY }) {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const byX = series.map((s) => new Map(s.points.map((p) => [p.x, p.y])));
  // Hidden by a box around it: a table is never narrower than its columns, so a hidden table of
  // eight series would still widen the page on a phone.
  return h('div', { class: 'sr-only' }, h('table', { class: 'chart-data' },
    h('caption', {}, title),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, xLabel),
      series.map((s) => h('th', { scope: 'col' }, s.name)))),
    h('tbody', {}, xs.map((x) => h('tr', { 'data-x': x }, h('th', { scope: 'row' }, formatX(x)),
      byX.map((values) => h('td', {}, values.has(x) ? formatY(values.get(x)) : '')))))));
}

/**
 * A <figure class="chart"> with the title as its caption, the drawing (aria-hidden) and a visually
 * hidden table of the same numbers. `series` is [{ name, points: [{ x, y }], strong }] with numeric
 * x and y; a `strong` series (a match's winner) is drawn and named bolder;
 * `formatX` / `formatY` write the numbers as the reader reads them (ticks and table alike).
 * Null when no series has a point.
 */
export function lineChart({ title, xLabel, yLabel, series, formatX = String, formatY = String }) {
  const drawn = series.filter((s) => s.points.length);
  if (!drawn.length) return null;
  const all = drawn.flatMap((s) => s.points);
  let [x0, x1] = [Math.min(...all.map((p) => p.x)), Math.max(...all.map((p) => p.x))];
  let [y0, y1] = [Math.min(...all.map((p) => p.y)), Math.max(...all.map((p) => p.y))];
  if (x0 === x1) { x0 -= 1; x1 += 1; }
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  // A penalty point or a point is never a half: an axis of whole numbers has whole ticks.
  const yTicks = ticks(y0, y1, 4, all.every((p) => Number.isInteger(p.y)));
  // Rounds and matches are counted: no tick between two of them.
  const counted = all.every((p) => Number.isInteger(p.x));
  const xTicks = ticks(x0, x1).filter((v) => !counted || (Number.isInteger(v) && all.some((p) => p.x <= v) && all.some((p) => p.x >= v)));
  [y0, y1] = [Math.min(y0, yTicks[0]), Math.max(y1, yTicks[yTicks.length - 1])];
  const plot = { left: PAD.left, right: WIDTH - PAD.right, top: PAD.top, bottom: HEIGHT - PAD.bottom };
  const sx = (x) => plot.left + ((x - x0) / (x1 - x0)) * (plot.right - plot.left);
  const sy = (y) => plot.bottom - ((y - y0) / (y1 - y0)) * (plot.bottom - plot.top);

  const grid = svg('g', { class: 'chart-grid' },
    yTicks.map((v) => svg('g', {}, svg('line', { x1: plot.left, x2: plot.right, y1: sy(v), y2: sy(v) }),
      svg('text', { x: plot.left - 4, y: sy(v), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, formatY(v)))),
    xTicks.map((v) => svg('text', { x: sx(v), y: plot.bottom + 14, 'text-anchor': 'middle' }, formatX(v))),
    svg('line', { class: 'chart-axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
    svg('text', { class: 'chart-axis-name', x: (plot.left + plot.right) / 2, y: HEIGHT - 4, 'text-anchor': 'middle' }, xLabel),
    yLabel && svg('text', { class: 'chart-axis-name', x: 0, y: 0, 'text-anchor': 'middle',
      transform: `translate(11 ${(plot.top + plot.bottom) / 2}) rotate(-90)` }, yLabel));

  const labels = [];
  const lines = series.map((s, index) => {
    if (!s.points.length) return null;
    const points = [...s.points].sort((a, b) => a.x - b.x);
    const colour = `var(--chart-${index % COLOURS})`;
    const kind = MARKERS[index % MARKERS.length];
    const last = points[points.length - 1];
    labels.push({ name: shortName(s.name), colour, kind, y: sy(last.y), strong: s.strong });
    return svg('g', { class: s.strong ? 'chart-series strong' : 'chart-series', 'data-series': s.name, stroke: colour, fill: colour },
      svg('path', { d: points.map((p, i) => `${i ? 'L' : 'M'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(''),
        fill: 'none', 'stroke-width': s.strong ? 3.5 : 2, 'stroke-dasharray': DASHES[index % DASHES.length] || null }),
      points.map((p) => marker(kind, sx(p.x), sy(p.y))));
  });
  spread(labels, plot.top, plot.bottom);
  // The name in the text colour (legible on any background) after its series' marker.
  const names = svg('g', { class: 'chart-labels' }, labels.map((l) => svg('g', { stroke: l.colour, fill: l.colour, class: l.strong ? 'strong' : null },
    marker(l.kind, plot.right + 14, l.y),
    svg('text', { x: plot.right + 21, y: l.y, 'dominant-baseline': 'middle' }, l.name))));

  const picture = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, 'aria-hidden': 'true', focusable: 'false' },
    grid, lines, names);
  return h('figure', { class: 'chart' }, h('figcaption', {}, title), picture,
    table({ title, xLabel, series: drawn, formatX, formatY }));
}
