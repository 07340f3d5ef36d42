// A QR code encoder of our own (ISO/IEC 18004): byte mode, error correction level M, versions 1–10
// (up to 213 bytes, plenty for a share link), the mask with the lowest penalty, rendered as SVG.

// Per version 1–10 at level M: EC codewords per block, then [blocks, data codewords] groups.
const BLOCKS_M = [null,
  [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]],
  [16, [4, 27]], [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]]];
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42],
  [6, 26, 46], [6, 28, 50]];
const LEVEL_M_BITS = 0;

function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i -= 1) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    for (let j = 0; j < degree; j += 1) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = new Array(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift();
    result.push(0);
    divisor.forEach((coefficient, i) => { result[i] ^= gfMultiply(coefficient, factor); });
  }
  return result;
}

const dataCapacity = (version) => BLOCKS_M[version].slice(1).reduce((n, [blocks, size]) => n + blocks * size, 0);

function encodeData(bytes) {
  for (let version = 1; version <= 10; version += 1) {
    const countBits = version < 10 ? 8 : 16;
    const capacityBits = dataCapacity(version) * 8;
    if (4 + countBits + bytes.length * 8 > capacityBits) continue;
    const bits = [];
    const put = (value, length) => { for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1); };
    put(0b0100, 4);
    put(bytes.length, countBits);
    for (const byte of bytes) put(byte, 8);
    put(0, Math.min(4, capacityBits - bits.length));
    put(0, (8 - (bits.length % 8)) % 8);
    const codewords = [];
    for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    for (let pad = 0xec; codewords.length < capacityBits / 8; pad ^= 0xec ^ 0x11) codewords.push(pad);
    return { version, codewords };
  }
  throw new RangeError('text too long for a version 10 QR code');
}

function interleave(version, data) {
  const [ecLength, ...groups] = BLOCKS_M[version];
  const divisor = rsDivisor(ecLength);
  const blocks = [];
  let at = 0;
  for (const [count, size] of groups) {
    for (let b = 0; b < count; b += 1) {
      const part = data.slice(at, at + size);
      at += size;
      blocks.push({ data: part, ec: rsRemainder(part, divisor) });
    }
  }
  const out = [];
  const longest = Math.max(...blocks.map((b) => b.data.length));
  for (let i = 0; i < longest; i += 1) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ecLength; i += 1) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x) => x % 3 === 0, (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0, (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0, (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class Grid {
  constructor(version) {
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }
}

function drawFunctionPatterns(grid, version) {
  const { size } = grid;
  for (let i = 0; i < size; i += 1) {
    grid.set(6, i, i % 2 === 0);
    grid.set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy += 1) {
      for (let dx = -4; dx <= 4; dx += 1) {
        const x = cx + dx;
        const y = cy + dy;
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) grid.set(x, y, ring !== 2 && ring !== 4);
      }
    }
  }
  const centres = ALIGNMENT[version];
  const last = centres.length - 1;
  centres.forEach((cx, i) => centres.forEach((cy, j) => {
    if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
    for (let dy = -2; dy <= 2; dy += 1) {
      for (let dx = -2; dx <= 2; dx += 1) grid.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }));
  drawFormat(grid, 0); // reserves the format areas; redrawn with the real mask later
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i += 1) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i += 1) {
      const bit = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      grid.set(a, b, bit);
      grid.set(b, a, bit);
    }
  }
}

function drawFormat(grid, mask) {
  const { size } = grid;
  const data = (LEVEL_M_BITS << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i += 1) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i += 1) grid.set(8, i, bit(i));
  grid.set(8, 7, bit(6));
  grid.set(8, 8, bit(7));
  grid.set(7, 8, bit(8));
  for (let i = 9; i < 15; i += 1) grid.set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i += 1) grid.set(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i += 1) grid.set(8, size - 15 + i, bit(i));
  grid.set(8, size - 8, true);
}

function placeCodewords(grid, codewords) {
  const { size } = grid;
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert += 1) {
      for (let j = 0; j < 2; j += 1) {
        const x = right - j;
        const y = upward ? size - 1 - vert : vert;
        if (!grid.fixed[y][x] && i < codewords.length * 8) {
          grid.dark[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i += 1;
        }
      }
    }
  }
}

function applyMask(grid, mask) {
  for (let y = 0; y < grid.size; y += 1) {
    for (let x = 0; x < grid.size; x += 1) {
      if (!grid.fixed[y][x] && MASKS[mask](x, y)) grid.dark[y][x] = !grid.dark[y][x];
    }
  }
}

function penalty(dark) {
  const size = dark.length;
  let score = 0;
  const lines = [...dark, ...dark.map((_, x) => dark.map((row) => row[x]))];
  const finderLike = /(?=10111010000|00001011101)/g;
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i += 1) {
      if (i < size && line[i] === line[i - 1]) { run += 1; continue; }
      if (run >= 5) score += run - 2;
      run = 1;
    }
    score += 40 * (line.map(Number).join('').match(finderLike) || []).length;
  }
  let darkCount = 0;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      if (dark[y][x]) darkCount += 1;
      if (x + 1 < size && y + 1 < size && dark[y][x] === dark[y][x + 1]
        && dark[y][x] === dark[y + 1][x] && dark[y][x] === dark[y + 1][x + 1]) score += 3;
    }
  }
  const total = size * size;
  score += 10 * (Math.ceil(Math.abs(darkCount * 20 - total * 10) / total) - 1);
  return score;
}

/** The module matrix (rows of booleans, true = dark) for `text` encoded as UTF-8. */
export function qrMatrix(text, forcedMask = null) {
  const { version, codewords } = encodeData([...new TextEncoder().encode(text)]);
  const all = interleave(version, codewords);
  let best = null;
  for (let mask = 0; mask < 8; mask += 1) {
    if (forcedMask != null && mask !== forcedMask) continue;
    const grid = new Grid(version);
    drawFunctionPatterns(grid, version);
    placeCodewords(grid, all);
    applyMask(grid, mask);
    drawFormat(grid, mask);
    const score = forcedMask != null ? 0 : penalty(grid.dark);
    if (!best || score < best.score) best = { score, dark: grid.dark };
  }
  return best.dark;
}

/** An SVG (markup string) of the code with the 4-module quiet zone. */
export function qrSvg(text) {
  const dark = qrMatrix(text);
  const size = dark.length + 8;
  let path = '';
  dark.forEach((row, y) => row.forEach((on, x) => { if (on) path += `M${x + 4} ${y + 4}h1v1h-1z`; }));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">`
    + `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
